package org.modmq.bench;

import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * Fills a topic with a given number of stored messages before a consumer workload, by async sends
 * within a bounded window; failed sends are sent again. Used by one thread at a time.
 */
final class Preloader {

    private static final int WINDOW = 512;

    private final DefaultMQProducer producer;
    private final LoadMeter progress;

    /** @param progress counts stored messages and errors for the progress lines (never measured) */
    Preloader(DefaultMQProducer producer, LoadMeter progress) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /**
     * Stores {@code count} messages with body {@code body} in {@code topic}.
     *
     * @throws BenchException if they are not all stored within {@code timeoutMillis}
     */
    void fill(String topic, byte[] body, long count, long timeoutMillis) throws BenchException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Semaphore window = new Semaphore(WINDOW);
        AtomicLong stored = new AtomicLong();
        while (stored.get() < count) {
            long missing = count - stored.get();
            for (long i = 0; i < missing; i++) {
                if (!window.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw new BenchException("preload of " + count + " messages timed out at " + stored.get());
                }
                sendOne(topic, body, window, stored);
            }
            if (!window.tryAcquire(WINDOW, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw new BenchException("preload of " + count + " messages timed out at " + stored.get());
            }
            window.release(WINDOW);
        }
    }

    private void sendOne(String topic, byte[] body, Semaphore window, AtomicLong stored) {
        try {
            producer.send(new Message(topic, body), new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    if (result.getSendStatus() == SendStatus.SEND_OK) {
                        stored.incrementAndGet();
                        progress.success(1, body.length);
                    } else {
                        progress.error();
                    }
                    window.release();
                }

                @Override
                public void onException(Throwable e) {
                    progress.error();
                    window.release();
                }
            });
        } catch (Exception e) {
            progress.error();
            window.release();
        }
    }
}
