package org.modmq.bench;

import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * The local transaction of the {@code transaction} workload: commits at once, except for a fixed fraction
 * of sequence numbers, which answer UNKNOW so that the broker has to ask back; every check-back commits.
 * Which sequence numbers answer UNKNOW is a function of the number alone (spread by a multiplicative
 * hash), so the run does not depend on a random source. Thread-safe.
 */
final class CommitListener implements TransactionListener {

    private static final long BUCKETS = 1_000_000;

    private final long unknownBuckets;
    private final LongAdder unknownAnswers = new LongAdder();
    private final LongAdder checkBacks = new LongAdder();

    /** @param unknownFraction 0 to 1: the share of local transactions that answer UNKNOW */
    CommitListener(double unknownFraction) {
        if (!(unknownFraction >= 0 && unknownFraction <= 1)) {
            throw new IllegalArgumentException("unknownFraction must be 0 to 1");
        }
        this.unknownBuckets = Math.round(unknownFraction * BUCKETS);
    }

    /** Whether the local transaction of {@code sequence} answers UNKNOW. */
    boolean answersUnknown(int sequence) {
        return Math.floorMod(sequence * 0x9E3779B97F4A7C15L, BUCKETS) < unknownBuckets;
    }

    @Override
    public LocalTransactionState executeLocalTransaction(Message message, Object arg) {
        int sequence = ReceiptLedger.sequenceOf(message.getBody());
        if (sequence >= 0 && answersUnknown(sequence)) {
            unknownAnswers.increment();
            return LocalTransactionState.UNKNOW;
        }
        return LocalTransactionState.COMMIT_MESSAGE;
    }

    @Override
    public LocalTransactionState checkLocalTransaction(MessageExt message) {
        checkBacks.increment();
        return LocalTransactionState.COMMIT_MESSAGE;
    }

    long unknownAnswers() {
        return unknownAnswers.sum();
    }

    long checkBacks() {
        return checkBacks.sum();
    }
}
