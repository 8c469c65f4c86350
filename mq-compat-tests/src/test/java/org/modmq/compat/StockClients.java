package org.modmq.compat;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.store.OffsetStore;
import org.apache.rocketmq.client.consumer.store.ReadOffsetType;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;

/**
 * Stock 5.3.3 producers and consumers configured for the tests: an explicit name-server address
 * (never the HTTP lookup), a distinct instance name each (so two consumers in one JVM are two
 * clients), short route and heartbeat intervals. Callers shut them down. Stateless.
 */
final class StockClients {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private StockClients() {
    }

    /** A started producer in {@code group}. */
    static DefaultMQProducer producer(String namesrvAddr, String group) throws MQClientException {
        return producer(namesrvAddr, group, instanceName("producer"));
    }

    /**
     * A started producer in {@code group} with the given {@code instanceName}: stock clients of one
     * JVM with the same instance name share one client instance (connections, name-server choice).
     */
    static DefaultMQProducer producer(String namesrvAddr, String group, String instanceName) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(Objects.requireNonNull(namesrvAddr, "namesrvAddr"));
        producer.setInstanceName(Objects.requireNonNull(instanceName, "instanceName"));
        producer.setPollNameServerInterval(1_000);
        producer.setSendMsgTimeout(5_000);
        producer.start();
        return producer;
    }

    /**
     * A started push consumer of {@code topic} filtered by {@code tagExpression}, starting from the
     * first offset of a new group, that records every message it is given into {@code received}.
     */
    static DefaultMQPushConsumer pushConsumer(String namesrvAddr, String group, String topic, String tagExpression,
                                              MessageModel model, Received received) throws MQClientException {
        return pushConsumer(namesrvAddr, group, topic, tagExpression, model, received, instanceName("push"));
    }

    /** As {@link #pushConsumer(String, String, String, String, MessageModel, Received)}, with the given instance name. */
    static DefaultMQPushConsumer pushConsumer(String namesrvAddr, String group, String topic, String tagExpression,
                                              MessageModel model, Received received, String instanceName)
            throws MQClientException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(Objects.requireNonNull(namesrvAddr, "namesrvAddr"));
        consumer.setInstanceName(Objects.requireNonNull(instanceName, "instanceName"));
        consumer.setMessageModel(model);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1_000);
        consumer.setHeartbeatBrokerInterval(1_000);
        consumer.setPersistConsumerOffsetInterval(1_000);
        consumer.subscribe(topic, tagExpression);
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            received.addAll(messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        return consumer;
    }

    /** A started lite pull consumer in {@code group} without auto-commit (assign mode is chosen by the caller). */
    static DefaultLitePullConsumer litePullConsumer(String namesrvAddr, String group) throws MQClientException {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(group);
        consumer.setNamesrvAddr(Objects.requireNonNull(namesrvAddr, "namesrvAddr"));
        consumer.setInstanceName(instanceName("litepull"));
        consumer.setAutoCommit(false);
        consumer.setPollNameServerInterval(1_000);
        consumer.start();
        return consumer;
    }

    /** A message with a tag, keys and a UTF-8 body. */
    static Message message(String topic, String tag, String keys, String body) {
        return new Message(topic, tag, keys, body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Runs every shutdown at once, each on its own thread, and waits for all of them (bounded); see
     * {@link ClientShutdowns}.
     */
    static void shutdownAll(Runnable... shutdowns) {
        try (ClientShutdowns running = new ClientShutdowns()) {
            for (Runnable shutdown : shutdowns) {
                running.start(shutdown);
            }
        }
    }

    /** The queues of {@code topic} the consumer's rebalancing has assigned to it right now. */
    static Set<MessageQueue> assignedQueues(DefaultMQPushConsumer consumer, String topic) {
        return consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().keySet().stream()
                .filter(queue -> queue.getTopic().equals(topic))
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * Whether the consumer has consumed every queue in {@code ends} up to the given offset: its
     * in-memory offset (what its next commit sends) equals the end. The stock client commits
     * periodically only from 10 s after start; its {@code shutdown()} commits these offsets at once.
     */
    static boolean consumedUpTo(DefaultMQPushConsumer consumer, Map<MessageQueue, Long> ends) {
        OffsetStore offsets = consumer.getDefaultMQPushConsumerImpl().getOffsetStore();
        return !ends.isEmpty() && ends.entrySet().stream()
                .allMatch(end -> offsets.readOffset(end.getKey(), ReadOffsetType.READ_FROM_MEMORY) == end.getValue());
    }

    /** An instance name no other client of this JVM uses. */
    static String instanceName(String role) {
        return "compat-" + role + "-" + ProcessHandle.current().pid() + "-" + INSTANCES.incrementAndGet();
    }

    /** Messages delivered to a consumer's listener; thread-safe. */
    static final class Received {

        private final List<MessageExt> messages = new CopyOnWriteArrayList<>();

        void addAll(List<MessageExt> batch) {
            messages.addAll(batch);
        }

        /** A snapshot of everything received so far, in arrival order. */
        List<MessageExt> messages() {
            return Collections.unmodifiableList(List.copyOf(messages));
        }

        /** Bodies as UTF-8 strings, in arrival order. */
        List<String> bodies() {
            return messages.stream().map(message -> new String(message.getBody(), StandardCharsets.UTF_8))
                    .toList();
        }

        int size() {
            return messages.size();
        }
    }
}
