package org.modmq.broker.transaction;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.MessageSysFlag;
import org.modmq.api.message.StoredMessage;
import org.modmq.broker.client.ClientChannelInfo;
import org.modmq.broker.client.ProducerRegistry;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends CHECK_TRANSACTION_STATE (39, one-way) to a live connection of the half message's producer
 * group, as RocketMQ's check listener does: header {@code topic} (the half topic),
 * {@code tranStateTableOffset} and {@code commitLogOffset} of the copy just stored, {@code msgId} and
 * {@code transactionId} (the UNIQ_KEY), {@code offsetMsgId}, {@code bname}; body the copy's stored record
 * with its real topic and queue id put back (the producer reads its group and transaction id from it).
 * Thread-safe; never blocks.
 */
final class CheckRequests {

    private static final Logger LOG = LoggerFactory.getLogger(CheckRequests.class);
    private static final int MAGIC_V1 = 0xDAA320A7;
    private static final int MAGIC_V2 = 0xDAA320AB;

    private final ProducerRegistry producers;
    private final MessageStore store;
    private final String brokerName;
    private final AtomicInteger next = new AtomicInteger();

    CheckRequests(ProducerRegistry producers, MessageStore store, String brokerName) {
        this.producers = producers;
        this.store = store;
        this.brokerName = brokerName;
    }

    /**
     * Asks a producer of {@code copy}'s group about it.
     *
     * @param offsetMsgId the copy's offsetMsgId
     * @return whether a live connection was found (the request is written asynchronously)
     */
    boolean send(StoredMessage copy, String offsetMsgId) {
        var properties = copy.message().propertyMap();
        String group = properties.get(TransactionKeys.PGROUP);
        Optional<ClientChannelInfo> target = group == null ? Optional.empty() : pick(producers.connections(group));
        if (target.isEmpty()) {
            LOG.warn("check-back of transaction {} (half at {}) not sent: no live producer of group {}",
                    properties.get(MessageProperties.UNIQ_KEY), copy.commitLogOffset(), group);
            return false;
        }
        byte[] body = bodyOf(copy, properties.get(TransactionKeys.REAL_TOPIC), properties.get(TransactionKeys.REAL_QID));
        if (body == null) {
            return false;
        }
        String uniqKey = properties.get(MessageProperties.UNIQ_KEY);
        RemotingCommand request = RemotingCommand.request(RequestCode.CHECK_TRANSACTION_STATE)
                .putExtField("topic", TransactionKeys.HALF_TOPIC)
                .putExtField("tranStateTableOffset", copy.queueOffset())
                .putExtField("commitLogOffset", copy.commitLogOffset())
                .putExtField("offsetMsgId", offsetMsgId)
                .putExtField("bname", brokerName)
                .withBody(body);
        if (uniqKey != null) {
            request.putExtField("msgId", uniqKey).putExtField("transactionId", uniqKey);
        }
        ClientChannelInfo producer = target.get();
        producer.channel().sendOneway(request).whenComplete((ok, error) -> {
            if (error != null) {
                LOG.info("check-back of transaction {} to {} failed: {}", uniqKey, producer.clientId(), error.toString());
            }
        });
        return true;
    }

    private Optional<ClientChannelInfo> pick(List<ClientChannelInfo> connections) {
        List<ClientChannelInfo> live = connections.stream().filter(c -> c.channel().isActive()).toList();
        if (live.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(live.get(Math.floorMod(next.getAndIncrement(), live.size())));
    }

    /** The stored record of {@code copy} with topic and queue id replaced, or null when it is gone. */
    private byte[] bodyOf(StoredMessage copy, String realTopic, String realQueueId) {
        ByteBuf record = store.readMessage(copy.commitLogOffset());
        if (record == null) {
            return null;
        }
        try {
            byte[] raw = new byte[record.readableBytes()];
            record.getBytes(record.readerIndex(), raw);
            int queueId = 0;
            try {
                queueId = realQueueId == null ? 0 : Integer.parseInt(realQueueId);
            } catch (NumberFormatException e) {
                queueId = 0;
            }
            return withTopic(raw, realTopic == null ? copy.message().topic() : realTopic, queueId);
        } finally {
            record.release();
        }
    }

    /** {@code record} (RocketMQ's stored layout) with {@code topic} and {@code queueId}. */
    static byte[] withTopic(byte[] record, String topic, int queueId) {
        ByteBuffer in = ByteBuffer.wrap(record);
        int sysFlag = in.getInt(36);
        int bornHost = (sysFlag & MessageSysFlag.BORNHOST_V6) != 0 ? 20 : 8;
        int storeHost = (sysFlag & MessageSysFlag.STOREHOST_V6) != 0 ? 20 : 8;
        int bodyLengthAt = 48 + bornHost + 8 + storeHost + 12;
        int topicAt = bodyLengthAt + 4 + in.getInt(bodyLengthAt);
        boolean v2 = in.getInt(4) == MAGIC_V2;
        int oldTopicLength = v2 ? Short.toUnsignedInt(in.getShort(topicAt)) : Byte.toUnsignedInt(in.get(topicAt));
        int propertiesAt = topicAt + (v2 ? 2 : 1) + oldTopicLength;
        byte[] name = topic.getBytes(StandardCharsets.UTF_8);
        boolean outV2 = v2 || name.length > 127;
        int tail = record.length - propertiesAt;
        ByteBuffer out = ByteBuffer.allocate(topicAt + (outV2 ? 2 : 1) + name.length + tail);
        out.put(record, 0, topicAt);
        if (outV2) {
            out.putShort((short) name.length);
        } else {
            out.put((byte) name.length);
        }
        out.put(name).put(record, propertiesAt, tail);
        out.putInt(0, out.capacity()).putInt(4, outV2 ? MAGIC_V2 : MAGIC_V1).putInt(12, queueId);
        return out.array();
    }
}
