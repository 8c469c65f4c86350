package org.modmq.broker.transaction;

import java.util.HashSet;
import java.util.Set;
import org.modmq.api.message.StoredMessage;
import org.modmq.broker.metadata.ConsumerOffsetTable;
import org.modmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the {@link TransactionLedger} from what is stored: the check-back's progress (the
 * {@code CID_RMQ_SYS_TRANS} offsets on the half and op topics, RocketMQ's own bookkeeping, which
 * replicas copy with the other consumer offsets), the op records from the op offset on, and the half
 * messages from the half offset on (for each copy, the transaction it belongs to). Runs when the broker
 * becomes master, so a restarted or newly promoted master carries on where the last one stopped.
 * Stateless.
 */
final class LedgerLoader {

    private static final Logger LOG = LoggerFactory.getLogger(LedgerLoader.class);

    private LedgerLoader() {
    }

    static TransactionLedger load(MessageStore store, ConsumerOffsetTable offsets) {
        long halfFrom = committed(store, offsets, TransactionKeys.HALF_TOPIC);
        long opFrom = committed(store, offsets, TransactionKeys.OP_TOPIC);
        long halfEnd = store.getMaxOffsetInQueue(TransactionKeys.HALF_TOPIC, TransactionKeys.QUEUE);
        long opEnd = store.getMaxOffsetInQueue(TransactionKeys.OP_TOPIC, TransactionKeys.QUEUE);
        TransactionLedger ledger = new TransactionLedger(halfFrom, opFrom);
        Set<Long> opened = new HashSet<>();
        for (long at = opFrom; at < opEnd; ) {
            QueueScan.Chunk chunk = QueueScan.read(store, TransactionKeys.OP_TOPIC, at);
            for (StoredMessage op : chunk.messages()) {
                long max = -1;
                for (long half : HalfMessages.opOffsets(op)) {
                    if (half >= halfFrom) {
                        opened.add(half);
                    }
                    max = Math.max(max, half);
                }
                ledger.opStored(op.queueOffset(), max);
            }
            if (chunk.next() <= at) {
                break;
            }
            at = chunk.next();
        }
        int copies = 0;
        for (long at = halfFrom; at < halfEnd; ) {
            QueueScan.Chunk chunk = QueueScan.read(store, TransactionKeys.HALF_TOPIC, at);
            for (StoredMessage half : chunk.messages()) {
                long root = HalfMessages.rootOf(half);
                if (root != half.queueOffset()) {
                    ledger.copied(root, half.queueOffset());
                    copies++;
                }
                if (opened.contains(half.queueOffset())) {
                    ledger.ended(root, half.queueOffset());
                }
            }
            if (chunk.next() <= at) {
                break;
            }
            at = chunk.next();
        }
        ledger.passTo(halfFrom, opEnd);
        LOG.info("transactions: {} half messages from offset {} ({} check-back copies), {} ended, op offset {} of {}",
                halfEnd - halfFrom, halfFrom, copies, opened.size(), ledger.opPassedBelow(), opEnd);
        return ledger;
    }

    /** The group's committed offset on the topic's queue, or the queue's min offset; within the queue's bounds. */
    private static long committed(MessageStore store, ConsumerOffsetTable offsets, String topic) {
        long min = store.getMinOffsetInQueue(topic, TransactionKeys.QUEUE);
        long max = store.getMaxOffsetInQueue(topic, TransactionKeys.QUEUE);
        long offset = offsets.query(TransactionKeys.GROUP, topic, TransactionKeys.QUEUE).orElse(min);
        return Math.max(min, Math.min(max, offset));
    }
}
