package org.modmq.broker.transaction;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.MessageSysFlag;
import org.modmq.api.message.StoredMessage;
import org.modmq.broker.schedule.DelayRedirect;
import org.modmq.remoting.protocol.ResponseCodeException;

/**
 * The messages a transaction stores, built as RocketMQ 5.3.3 builds them, so that a stock broker
 * opening this store reads the same state: the half message (a prepared send redirected to
 * {@code RMQ_SYS_TRANS_HALF_TOPIC} queue 0, its real topic and queue in {@code REAL_TOPIC} and
 * {@code REAL_QID}, transaction type reset), its copies (a check-back re-puts it with
 * {@code TRANSACTION_CHECK_TIMES} counted), the committed message, the op record and the discarded
 * message. Stateless.
 */
final class HalfMessages {

    private HalfMessages() {
    }

    /**
     * Whether a send is prepared: {@code TRAN_MSG=true}, except a retry with a delay level (what clients
     * before 4.6.1 sent back), as RocketMQ decides.
     */
    static boolean isPrepared(BrokerMessage message) {
        // Read by a scan: every send asks, and a decoded map per message is measurable.
        if (!Boolean.parseBoolean(MessageProperties.value(message.properties(), TransactionKeys.TRAN_MSG))) {
            return false;
        }
        String delay = MessageProperties.value(message.properties(), MessageProperties.DELAY);
        boolean delayed = delay != null && !delay.isEmpty() && !"0".equals(delay.trim());
        return !(message.reconsumeTimes() > 0 && delayed);
    }

    /** The half message a prepared send is stored as. */
    static BrokerMessage half(BrokerMessage prepared) {
        Map<String, String> properties = prepared.propertyMap();
        String uniqKey = properties.get(MessageProperties.UNIQ_KEY);
        if (uniqKey != null && !uniqKey.isEmpty()) {
            properties.put(TransactionKeys.TRANSACTION_ID, uniqKey);
        }
        properties.put(TransactionKeys.REAL_TOPIC, prepared.topic());
        properties.put(TransactionKeys.REAL_QID, Integer.toString(prepared.queueId()));
        return new BrokerMessage(TransactionKeys.HALF_TOPIC, TransactionKeys.QUEUE, prepared.flag(), prepared.body(),
                MessageProperties.encode(properties), prepared.bornTimestamp(), prepared.bornHost(),
                prepared.storeHost(), MessageSysFlag.withTransactionType(prepared.sysFlag(),
                MessageSysFlag.TRANSACTION_NOT_TYPE), prepared.reconsumeTimes(), 0);
    }

    /**
     * The half queue offset of the prepared message {@code copy} descends from: its
     * {@code TRAN_PREPARED_QUEUE_OFFSET}, or its own offset for the original.
     */
    static long rootOf(StoredMessage copy) {
        String root = copy.message().propertyMap().get(TransactionKeys.PREPARED_QUEUE_OFFSET);
        if (root != null) {
            try {
                return Long.parseLong(root);
            } catch (NumberFormatException e) {
                return copy.queueOffset();
            }
        }
        return copy.queueOffset();
    }

    /** {@code TRANSACTION_CHECK_TIMES} of a copy, 0 when absent or malformed. */
    static int checkTimes(StoredMessage copy) {
        try {
            return Integer.parseInt(copy.message().propertyMap().getOrDefault(TransactionKeys.CHECK_TIMES, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * A new copy of {@code half} for the end of the half queue, naming its original; with
     * {@code checkTimes} &gt;= 0 its {@code TRANSACTION_CHECK_TIMES} becomes that (a check-back), else it
     * is kept (a message still inside its immunity time moves on unchecked).
     */
    static BrokerMessage copy(StoredMessage half, long root, int checkTimes) {
        BrokerMessage message = half.message();
        Map<String, String> properties = message.propertyMap();
        if (checkTimes >= 0) {
            properties.put(TransactionKeys.CHECK_TIMES, Integer.toString(checkTimes));
        }
        properties.put(TransactionKeys.PREPARED_QUEUE_OFFSET, Long.toString(root));
        return new BrokerMessage(TransactionKeys.HALF_TOPIC, TransactionKeys.QUEUE, message.flag(), message.body(),
                MessageProperties.encode(properties), message.bornTimestamp(), message.bornHost(), message.storeHost(),
                message.sysFlag(), message.reconsumeTimes(), 0);
    }

    /**
     * The committed message: the half message back in its real topic and queue, transaction type COMMIT,
     * {@code REAL_TOPIC}, {@code REAL_QID} and {@code TRAN_MSG} removed, the half's CommitLog offset as
     * its prepared transaction offset. A message with a delay level goes to its schedule queue, as a plain
     * send with one would.
     *
     * @throws IllegalArgumentException when {@code half} names no real topic or queue
     */
    static BrokerMessage committed(StoredMessage half, DelayRedirect delay) {
        BrokerMessage message = half.message();
        Map<String, String> properties = message.propertyMap();
        String topic = properties.remove(TransactionKeys.REAL_TOPIC);
        String queue = properties.remove(TransactionKeys.REAL_QID);
        properties.remove(TransactionKeys.TRAN_MSG);
        if (topic == null || topic.isEmpty() || queue == null) {
            throw new IllegalArgumentException("the half message at " + half.commitLogOffset()
                    + " names no REAL_TOPIC or REAL_QID");
        }
        int queueId;
        try {
            queueId = Integer.parseInt(queue);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the half message at " + half.commitLogOffset() + " has REAL_QID "
                    + queue);
        }
        int sysFlag = MessageSysFlag.withTransactionType(message.sysFlag(), MessageSysFlag.TRANSACTION_COMMIT_TYPE);
        DelayRedirect.Target target;
        try {
            target = delay.redirect(topic, queueId, properties, sysFlag);
        } catch (ResponseCodeException e) {
            throw new IllegalArgumentException("the half message at " + half.commitLogOffset() + ": " + e.remark());
        }
        return new BrokerMessage(target.topic(), target.queueId(), message.flag(), message.body(),
                MessageProperties.encode(properties), message.bornTimestamp(), message.bornHost(), message.storeHost(),
                sysFlag, message.reconsumeTimes(), half.commitLogOffset());
    }

    /** The half message moved to {@code TRANS_CHECK_MAX_TIME_TOPIC} queue 0 once it was checked too often. */
    static BrokerMessage discarded(StoredMessage half) {
        BrokerMessage message = half.message();
        return new BrokerMessage(TransactionKeys.CHECK_MAX_TOPIC, 0, message.flag(), message.body(),
                message.properties(), message.bornTimestamp(), message.bornHost(), message.storeHost(),
                message.sysFlag(), message.reconsumeTimes(), 0);
    }

    /**
     * The op record marking half messages as done: tag {@code d}, body each half queue offset followed by
     * {@code ,} (RocketMQ's format, e.g. {@code "5,"} or {@code "5,9,"}).
     */
    static BrokerMessage op(long[] halfQueueOffsets, InetSocketAddress storeHost, long now) {
        String properties = MessageProperties.encode(Map.of(MessageProperties.TAGS, TransactionKeys.REMOVE_TAG,
                MessageProperties.WAIT, "true"));
        StringBuilder text = new StringBuilder();
        for (long offset : halfQueueOffsets) {
            text.append(offset).append(',');
        }
        byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
        return new BrokerMessage(TransactionKeys.OP_TOPIC, TransactionKeys.QUEUE, 0, body, properties, now, storeHost,
                storeHost, 0, 0, 0);
    }

    /**
     * The half queue offsets an op record lists; empty for a record without the {@code d} tag. Entries
     * that are not numbers are skipped.
     */
    static long[] opOffsets(StoredMessage op) {
        if (!TransactionKeys.REMOVE_TAG.equals(op.message().tags())) {
            return new long[0];
        }
        String[] parts = new String(op.message().body(), StandardCharsets.UTF_8).split(",");
        long[] offsets = new long[parts.length];
        int n = 0;
        for (String part : parts) {
            try {
                offsets[n] = Long.parseLong(part.trim());
                n++;
            } catch (NumberFormatException e) {
                // RocketMQ skips what it cannot read too.
            }
        }
        return java.util.Arrays.copyOf(offsets, n);
    }
}
