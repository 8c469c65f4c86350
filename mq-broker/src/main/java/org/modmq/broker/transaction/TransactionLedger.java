package org.modmq.broker.transaction;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which half messages are still open, in memory, so that each transaction ends at most once.
 *
 * <p>A transaction is identified by its <em>root</em>, the half queue offset of its prepared message;
 * every check-back re-puts the half message as a new copy naming the root
 * ({@code TRAN_PREPARED_QUEUE_OFFSET}). A transaction is open while no copy of it has ended (op record)
 * and one of its copies is still ahead of the check-back ({@code >= passedBelow}). END_TRANSACTION for
 * any copy of an open transaction ends it (the producer's END names the original, a check-back's answer
 * the copy it was asked about); any later END for it is refused. Ends and check-back decisions are
 * taken under one lock, so a committed message is stored once even when a producer's late END and a
 * check-back's answer race.
 *
 * <p>It also tracks the op records not yet consumed: an op record is done once every half offset it
 * lists is below {@code passedBelow}; {@link #opPassedBelow()} is RocketMQ's op-queue consume offset.
 *
 * <p>Rebuilt from the store ({@link LedgerLoader}) each time the broker becomes master. Not
 * thread-safe: the {@link TransactionService} lock guards it.
 */
final class TransactionLedger {

    /** What is known of one transaction: its newest copy and whether it ended. */
    private static final class Root {
        long newest;
        boolean ended;

        Root(long newest) {
            this.newest = newest;
        }
    }

    private final Map<Long, Root> roots = new HashMap<>();
    private final TreeMap<Long, Long> opMaxHalf = new TreeMap<>();
    private long passedBelow;
    private long opPassedBelow;

    TransactionLedger(long passedBelow, long opPassedBelow) {
        this.passedBelow = passedBelow;
        this.opPassedBelow = opPassedBelow;
    }

    /** The half queue offset below which the check-back has handled every copy. */
    long passedBelow() {
        return passedBelow;
    }

    /** The op queue offset below which every op record is done. */
    long opPassedBelow() {
        return opPassedBelow;
    }

    /** Why the transaction of the copy at {@code queueOffset} (of {@code root}) is not open, or null when it is. */
    String notOpen(long queueOffset, long root) {
        Root known = roots.get(root);
        if (known != null && known.ended) {
            return "its transaction has already been committed, rolled back or discarded";
        }
        if (queueOffset < passedBelow && (known == null || known.newest < passedBelow)) {
            return "the check-back has already handled it";
        }
        return null;
    }

    /** Whether the check-back should pass over the copy at {@code queueOffset}: ended, or not the newest. */
    boolean skip(long queueOffset, long root) {
        Root known = roots.get(root);
        return known != null && (known.ended || known.newest > queueOffset);
    }

    /** The newest copy of {@code root} known, or {@code root} itself. */
    long newestCopy(long root) {
        Root known = roots.get(root);
        return known == null ? root : Math.max(root, known.newest);
    }

    /** A copy of {@code root} now exists at {@code queueOffset}. */
    void copied(long root, long queueOffset) {
        Root known = roots.computeIfAbsent(root, Root::new);
        known.newest = Math.max(known.newest, queueOffset);
    }

    /** The transaction of {@code root} ended at its copy {@code queueOffset}. */
    void ended(long root, long queueOffset) {
        copied(root, queueOffset);
        roots.get(root).ended = true;
    }

    /** An op record at {@code opOffset} lists half offsets up to {@code maxHalfOffset}. */
    void opStored(long opOffset, long maxHalfOffset) {
        if (opOffset >= opPassedBelow) {
            opMaxHalf.merge(opOffset, maxHalfOffset, Math::max);
        }
    }

    /**
     * The check-back handled every copy below {@code offset}: forgets transactions whose newest copy is
     * below it and moves the op offset past op records that are done.
     *
     * @param opEnd the op queue's max offset (where the op offset stops when no op record is open)
     */
    void passTo(long offset, long opEnd) {
        passedBelow = Math.max(passedBelow, offset);
        for (Iterator<Root> it = roots.values().iterator(); it.hasNext(); ) {
            if (it.next().newest < passedBelow) {
                it.remove();
            }
        }
        while (!opMaxHalf.isEmpty() && opMaxHalf.firstEntry().getValue() < passedBelow) {
            opPassedBelow = Math.max(opPassedBelow, opMaxHalf.pollFirstEntry().getKey() + 1);
        }
        if (opMaxHalf.isEmpty()) {
            opPassedBelow = Math.max(opPassedBelow, opEnd);
        } else {
            opPassedBelow = Math.max(opPassedBelow, opMaxHalf.firstKey());
        }
    }

    /** Transactions with a copy or an end recorded (for logs and tests). */
    int trackedRoots() {
        return roots.size();
    }
}
