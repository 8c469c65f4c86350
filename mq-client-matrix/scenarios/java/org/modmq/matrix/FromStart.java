package org.modmq.matrix;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.modmq.testkit.process.Await;

/**
 * Reads an assigned queue of a stock lite pull consumer from offset 0. The pull task that {@code assign}
 * starts can finish after a {@code seek} and set the consumer's pull offset back to the queue's end; the
 * stock consumer then polls nothing for good (suite runs on every line saw it: nothing for 30 s). So when
 * {@link #QUIET} passes without a message before the reader is done, it seeks to 0 again and starts over.
 */
final class FromStart {

    static final Duration QUIET = Duration.ofSeconds(5);

    private FromStart() {
    }

    /** Exactly {@code expected} messages from offset 0, within {@code within}. */
    static List<MessageExt> poll(DefaultLitePullConsumer consumer, MessageQueue queue, int expected,
                                 Duration within) throws MQClientException {
        List<MessageExt> got = pollUntil(consumer, queue, expected + " polled messages from offset 0", within,
                read -> read.size() >= expected);
        if (got.size() != expected) {
            throw new AssertionError("expected " + expected + " messages from offset 0, polled " + got.size());
        }
        return got;
    }

    /**
     * Messages from offset 0 until {@code done} holds for what was read since the last seek. A re-read
     * after a seek can hand out a message again, so callers that keep polling afterwards key by offset.
     */
    static List<MessageExt> pollUntil(DefaultLitePullConsumer consumer, MessageQueue queue, String what,
                                      Duration within, Predicate<List<MessageExt>> done) throws MQClientException {
        List<MessageExt> got = new ArrayList<>();
        long[] lastProgress = {System.nanoTime()};
        consumer.seek(queue, 0);
        Await.until(what, within, () -> {
            List<MessageExt> polled = consumer.poll(200);
            if (!polled.isEmpty()) {
                got.addAll(polled);
                lastProgress[0] = System.nanoTime();
            } else if (!done.test(got) && System.nanoTime() - lastProgress[0] > QUIET.toNanos()) {
                got.clear();
                lastProgress[0] = System.nanoTime();
                seekAgain(consumer, queue);
            }
            return done.test(got);
        });
        return got;
    }

    private static void seekAgain(DefaultLitePullConsumer consumer, MessageQueue queue) {
        try {
            consumer.seek(queue, 0);
        } catch (MQClientException e) {
            throw new IllegalStateException("seek of " + queue + " to 0", e);
        }
    }
}
