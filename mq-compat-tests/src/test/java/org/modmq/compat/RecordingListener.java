package org.modmq.compat;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * A concurrent listener that records each delivery with the wall-clock time it arrived and answers
 * RECONSUME_LATER for the messages {@code later} picks, CONSUME_SUCCESS for the others. Thread-safe.
 */
final class RecordingListener implements MessageListenerConcurrently {

    /** One delivery to the listener. */
    record Delivery(long arrivedAt, MessageExt message) {
    }

    private final Predicate<MessageExt> later;
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

    RecordingListener(Predicate<MessageExt> later) {
        this.later = Objects.requireNonNull(later, "later");
    }

    @Override
    public ConsumeConcurrentlyStatus consumeMessage(List<MessageExt> messages, ConsumeConcurrentlyContext context) {
        long now = System.currentTimeMillis();
        boolean retry = false;
        for (MessageExt message : messages) {
            deliveries.add(new Delivery(now, message));
            retry |= later.test(message);
        }
        return retry ? ConsumeConcurrentlyStatus.RECONSUME_LATER : ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
    }

    List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /**
     * A started clustering push consumer of {@code topic} in {@code group} from the first offset, one
     * message per call, giving up after {@code maxReconsumeTimes} (the stock client sends it with each
     * CONSUMER_SEND_MSG_BACK).
     */
    DefaultMQPushConsumer start(String namesrvAddr, String group, String topic, int maxReconsumeTimes)
            throws MQClientException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(StockClients.instanceName("recording"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1_000);
        consumer.setHeartbeatBrokerInterval(1_000);
        consumer.setPersistConsumerOffsetInterval(1_000);
        consumer.setMaxReconsumeTimes(maxReconsumeTimes);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener(this);
        consumer.start();
        return consumer;
    }
}
