package org.modmq.matrix;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.consumer.store.OffsetStore;
import org.apache.rocketmq.client.consumer.store.ReadOffsetType;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Stock clients of the module's line, configured alike on every line: an explicit name-server address
 * (never the HTTP lookup), an instance name of their own, short route, heartbeat and commit intervals.
 * Push consumers are clustering (the default, so no version-specific {@code MessageModel} import) and
 * start a new group at the first offset. Callers shut them down. Stateless.
 */
final class MatrixClients {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private MatrixClients() {
    }

    static DefaultMQAdminExt admin(String namesrvAddr) throws MQClientException {
        return admin(namesrvAddr, null);
    }

    /** An admin client whose requests pass {@code rpcHook} (e.g. the ACL signature), or none when null. */
    static DefaultMQAdminExt admin(String namesrvAddr, RPCHook rpcHook) throws MQClientException {
        DefaultMQAdminExt admin = rpcHook == null ? new DefaultMQAdminExt(5_000) : new DefaultMQAdminExt(rpcHook, 5_000);
        admin.setNamesrvAddr(namesrvAddr);
        admin.setInstanceName(instanceName("admin"));
        admin.start();
        return admin;
    }

    static DefaultMQProducer producer(String namesrvAddr, String group) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName(instanceName("producer"));
        producer.setPollNameServerInterval(1_000);
        producer.setSendMsgTimeout(5_000);
        producer.start();
        return producer;
    }

    /**
     * A started transactional producer whose local transactions and check-backs {@code listener} decides;
     * it heartbeats every second, so the broker soon knows whom to ask.
     */
    static TransactionMQProducer transactionProducer(String namesrvAddr, String group, TransactionListener listener)
            throws MQClientException {
        TransactionMQProducer producer = new TransactionMQProducer(group);
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName(instanceName("tx"));
        producer.setPollNameServerInterval(1_000);
        producer.setHeartbeatBrokerInterval(1_000);
        producer.setSendMsgTimeout(5_000);
        producer.setTransactionListener(listener);
        producer.start();
        return producer;
    }

    /**
     * A started push consumer of {@code topic} whose {@code listener} decides, retried at most
     * {@code maxReconsumeTimes} times before the broker moves a message to {@code %DLQ%group}.
     */
    static DefaultMQPushConsumer pushConsumer(String namesrvAddr, String group, String topic, int maxReconsumeTimes,
                                              MessageListenerConcurrently listener) throws MQClientException {
        DefaultMQPushConsumer consumer = unstartedPushConsumer(namesrvAddr, group, topic);
        consumer.setMaxReconsumeTimes(maxReconsumeTimes);
        consumer.registerMessageListener(listener);
        consumer.start();
        return consumer;
    }

    /** A started push consumer of {@code topic} that records every message it is given. */
    static DefaultMQPushConsumer pushConsumer(String namesrvAddr, String group, String topic, Received received)
            throws MQClientException {
        DefaultMQPushConsumer consumer = unstartedPushConsumer(namesrvAddr, group, topic);
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            received.addAll(messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        return consumer;
    }

    /** A started orderly push consumer (queue locks, one queue at a time) that records what it is given. */
    static DefaultMQPushConsumer orderlyConsumer(String namesrvAddr, String group, String topic, Received received)
            throws MQClientException {
        DefaultMQPushConsumer consumer = unstartedPushConsumer(namesrvAddr, group, topic);
        consumer.registerMessageListener((MessageListenerOrderly) (messages, context) -> {
            received.addAll(messages);
            return ConsumeOrderlyStatus.SUCCESS;
        });
        consumer.start();
        return consumer;
    }

    private static DefaultMQPushConsumer unstartedPushConsumer(String namesrvAddr, String group, String topic)
            throws MQClientException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(instanceName("push"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1_000);
        consumer.setHeartbeatBrokerInterval(1_000);
        consumer.setPersistConsumerOffsetInterval(1_000);
        consumer.subscribe(topic, "*");
        return consumer;
    }

    /** A started lite pull consumer without auto-commit, for assign and seek. */
    static DefaultLitePullConsumer litePullConsumer(String namesrvAddr, String group) throws MQClientException {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(instanceName("litepull"));
        consumer.setAutoCommit(false);
        consumer.setPollNameServerInterval(1_000);
        consumer.start();
        return consumer;
    }

    static Message message(String topic, String tag, String keys, String body) {
        return new Message(topic, tag, keys, body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Whether the consumer's in-memory offset (what its next commit sends) has reached every end; its
     * {@code shutdown()} commits these at once.
     */
    static boolean consumedUpTo(DefaultMQPushConsumer consumer, Map<MessageQueue, Long> ends) {
        OffsetStore offsets = consumer.getDefaultMQPushConsumerImpl().getOffsetStore();
        return !ends.isEmpty() && ends.entrySet().stream()
                .allMatch(end -> offsets.readOffset(end.getKey(), ReadOffsetType.READ_FROM_MEMORY) == end.getValue());
    }

    /**
     * Client shutdowns running in the background, each on its own thread (a stock client's shutdown
     * blocks for seconds), for clients whose last commit nobody waits for. Thread-safe.
     */
    static final class Shutdowns {

        private final List<Thread> threads = new CopyOnWriteArrayList<>();

        void start(Runnable shutdown) {
            Thread thread = new Thread(shutdown, "matrix-client-shutdown");
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }

        /** Waits for every shutdown started so far, at most 30 s in all. */
        void await() {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            for (Thread thread : threads) {
                try {
                    thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while shutting clients down", e);
                }
            }
            threads.clear();
        }
    }

    private static String instanceName(String role) {
        return "matrix-" + role + "-" + ProcessHandle.current().pid() + "-" + INSTANCES.incrementAndGet();
    }

    /** Messages delivered to a listener, each with when it was given to the listener; thread-safe. */
    static final class Received {

        private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

        void addAll(List<MessageExt> batch) {
            long now = System.currentTimeMillis();
            batch.forEach(message -> deliveries.add(new Delivery(message, now)));
        }

        List<MessageExt> messages() {
            return deliveries.stream().map(Delivery::message).toList();
        }

        List<Delivery> deliveries() {
            return List.copyOf(deliveries);
        }

        List<String> bodies() {
            return messages().stream().map(m -> new String(m.getBody(), StandardCharsets.UTF_8)).toList();
        }

        int size() {
            return deliveries.size();
        }

        /** The first delivery whose body is {@code body}, if any. */
        Optional<Delivery> first(String body) {
            return deliveries.stream()
                    .filter(d -> body.equals(new String(d.message().getBody(), StandardCharsets.UTF_8))).findFirst();
        }
    }

    /** One message as a listener was given it, and when ({@code System.currentTimeMillis()}). */
    record Delivery(MessageExt message, long arrivedAt) {
    }
}
