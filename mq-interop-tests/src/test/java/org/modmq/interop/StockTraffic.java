package org.modmq.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.modmq.testkit.process.Await;

/**
 * Sends messages with the stock producer ({@code DefaultMQProducer}, explicit name server) and remembers
 * where each one went. Bodies vary in size and content (seeded, so runs are repeatable) and carry keys,
 * tags and a user property, so the replicated records exercise every variable-length field. Used from
 * test threads; {@link #close()} shuts the producer down and is idempotent.
 */
final class StockTraffic implements AutoCloseable {

    private final DefaultMQProducer producer;
    private final String topic;
    private final Random random;
    private final String seedLabel;
    private final List<Sent> sent = new ArrayList<>();
    private boolean closed;

    /** A started producer for {@code topic}; {@code seed} fixes the bodies' sizes and contents. */
    StockTraffic(String namesrvAddr, String topic, long seed) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.random = new Random(seed);
        this.seedLabel = seed + "-";
        producer = new DefaultMQProducer("interop-producer");
        producer.setNamesrvAddr(Objects.requireNonNull(namesrvAddr, "namesrvAddr"));
        producer.setInstanceName("interop-producer-" + System.nanoTime());
        producer.setSendMsgTimeout(10_000);
        producer.setRetryTimesWhenSendFailed(0);
        try {
            producer.start();
        } catch (MQClientException e) {
            throw new IllegalStateException("cannot start the stock producer", e);
        }
    }

    /**
     * Sends {@code count} messages one by one; each must be stored ({@code SEND_OK}). The first send
     * waits (bounded) until the topic's route reaches the name server.
     */
    void send(int count) {
        for (int i = 0; i < count; i++) {
            int index = sent.size();
            String label = seedLabel + index;
            byte[] body = body(label);
            Message message = new Message(topic, "tag-" + (index % 3), "key-" + label, body);
            message.putUserProperty("seq", label);
            SendResult result = index == 0
                    ? Await.value("the first send to " + topic, Duration.ofSeconds(30), () -> sendOnce(message))
                    : sendOnce(message);
            assertThat(result.getSendStatus()).as("status of message %d", index).isEqualTo(SendStatus.SEND_OK);
            sent.add(new Sent(result.getMessageQueue(), result.getQueueOffset(), result.getMsgId(), body));
        }
    }

    /** Everything sent so far, in sending order. */
    List<Sent> sent() {
        return List.copyOf(sent);
    }

    private SendResult sendOnce(Message message) {
        try {
            return producer.send(message);
        } catch (MQClientException | RemotingException | MQBrokerException e) {
            throw new IllegalStateException("send failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending", e);
        }
    }

    private byte[] body(String label) {
        int size = 100 + random.nextInt(1900);
        StringBuilder text = new StringBuilder(size).append("message ").append(label).append(' ');
        while (text.length() < size) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            producer.shutdown();
        }
    }

    /**
     * One stored message.
     *
     * @param queue       the queue the broker put it in
     * @param queueOffset its offset in that queue
     * @param msgId       the unique key the producer gave it
     * @param body        its body
     */
    record Sent(MessageQueue queue, long queueOffset, String msgId, byte[] body) {
    }
}
