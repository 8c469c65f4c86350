package org.modmq.bench;

import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;

/**
 * Creates stock RocketMQ clients configured alike for every workload: explicit name server, no VIP
 * channel, no message trace, bodies never compressed, and a group name unique to the run.
 * Stateless; callers own (start and shut down) what they get.
 */
final class BenchClients {

    private final CommonOptions options;

    BenchClients(CommonOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /** A producer, not yet started. */
    DefaultMQProducer producer(String workload) {
        return configure(new DefaultMQProducer(group("p", workload)));
    }

    /** A transactional producer whose local transactions and check-backs {@code listener} answers, not yet started. */
    TransactionMQProducer transactionProducer(String workload, TransactionListener listener) {
        TransactionMQProducer producer = configure(new TransactionMQProducer(group("p", workload)));
        producer.setTransactionListener(Objects.requireNonNull(listener, "listener"));
        return producer;
    }

    private <P extends DefaultMQProducer> P configure(P producer) {
        producer.setNamesrvAddr(options.namesrv);
        producer.setVipChannelEnabled(false);
        producer.setSendMsgTimeout(options.sendTimeoutMillis);
        producer.setDefaultTopicQueueNums(options.queues);
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        producer.setRetryTimesWhenSendFailed(0);
        producer.setRetryTimesWhenSendAsyncFailed(0);
        producer.setMaxMessageSize(Math.max(4 * 1024 * 1024, options.size * 64));
        return producer;
    }

    /** A lite pull consumer subscribed to every tag of {@code topic} from its first offset, not yet started. */
    DefaultLitePullConsumer litePullConsumer(String workload, String topic) throws MQClientException {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(group("c", workload));
        consumer.setNamesrvAddr(options.namesrv);
        consumer.setVipChannelEnabled(false);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPullBatchSize(32);
        consumer.setPollTimeoutMillis(1000);
        consumer.subscribe(topic, "*");
        return consumer;
    }

    /** A lite pull consumer of a fresh group for {@code assign}ed queues (no subscription), not yet started. */
    DefaultLitePullConsumer litePullConsumerForAssign(String workload) {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(group("c", workload));
        consumer.setNamesrvAddr(options.namesrv);
        consumer.setVipChannelEnabled(false);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setAutoCommit(false);
        consumer.setPullBatchSize(32);
        return consumer;
    }

    /** A push consumer subscribed to every tag of {@code topic} from its first offset, not yet started. */
    DefaultMQPushConsumer pushConsumer(String workload, String topic) throws MQClientException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group("c", workload));
        consumer.setNamesrvAddr(options.namesrv);
        consumer.setVipChannelEnabled(false);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPullBatchSize(32);
        consumer.setConsumeMessageBatchMaxSize(32);
        consumer.subscribe(topic, "*");
        return consumer;
    }

    /**
     * Sends one message until the broker stores it, so that the topic and its route exist before the
     * workload starts. Retries every 20 ms while the broker is not yet registered or the route is missing.
     *
     * @return the wall-clock time (epoch millis) of the first successful answer
     * @throws BenchException when no send succeeds within {@code timeoutMillis}
     */
    static long sendUntilStored(DefaultMQProducer producer, String topic, long timeoutMillis)
            throws BenchException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Exception last = null;
        while (System.nanoTime() - deadline < 0) {
            try {
                SendResult result = producer.send(new Message(topic, "probe".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                if (result.getSendStatus() == SendStatus.SEND_OK) {
                    return System.currentTimeMillis();
                }
                last = new BenchException("send status " + result.getSendStatus());
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                last = e;
            }
            Pacing.pause(TimeUnit.MILLISECONDS.toNanos(20));
        }
        throw new BenchException("no send to " + topic + " succeeded within " + timeoutMillis + " ms", last);
    }

    private static String group(String role, String workload) {
        return "bench_" + role + "_" + workload.replace('-', '_') + "_"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
    }
}
