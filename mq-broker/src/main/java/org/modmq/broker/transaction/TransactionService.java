package org.modmq.broker.transaction;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.StoredMessage;
import org.modmq.broker.config.TransactionConfig;
import org.modmq.broker.metadata.ConsumerOffsetTable;
import org.modmq.broker.runtime.BrokerRuntime;
import org.modmq.broker.schedule.DelayRedirect;
import org.modmq.broker.timer.TimerIntake;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;
import org.modmq.store.AppendedPut;
import org.modmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker side of RocketMQ's transactional messages: a prepared send is stored as a half message
 * ({@link #toStore}); END_TRANSACTION commits it (the message is stored into its real topic, then an op
 * record) or rolls it back (op record only), answering as RocketMQ's {@code EndTransactionProcessor}
 * does; the check-back ({@link TransactionCheckAgent}) asks producers about the half messages left open.
 *
 * <p>Every decision to end a transaction or re-put a half message is taken under one lock against the
 * {@link TransactionLedger}, which is rebuilt from the store whenever it is stale (at start and after a
 * role change), so a transaction ends at most once. Unlike a stock broker, which accepts a second
 * commit of the same half message and stores the message twice, an END for a transaction that is no
 * longer open (already ended or discarded) is refused with SYSTEM_ERROR and stores nothing. Thread-safe.
 */
final class TransactionService {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionService.class);

    private final BrokerRuntime runtime;
    private final MessageStore store;
    private final TransactionConfig config;
    private final DelayRedirect delay;
    private final TimerIntake timers;
    private final ReentrantLock lock = new ReentrantLock();
    private TransactionLedger ledger;
    private volatile boolean stale = true;

    TransactionService(BrokerRuntime runtime, MessageStore store) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.store = Objects.requireNonNull(store, "store");
        this.config = runtime.config().transactions();
        this.delay = new DelayRedirect(runtime.config().store().delayLevels());
        this.timers = new TimerIntake(runtime.config().timer(), runtime.clock());
    }

    TransactionConfig config() {
        return config;
    }

    MessageStore store() {
        return store;
    }

    BrokerRuntime runtime() {
        return runtime;
    }

    /**
     * What a send stores: a prepared message ({@code TRAN_MSG=true}) becomes its half message; anything
     * else is returned as is.
     *
     * @throws ResponseCodeException NO_PERMISSION under {@code rejectTransactionMessage}, MESSAGE_ILLEGAL
     *     for a prepared message in a batch
     */
    List<BrokerMessage> toStore(List<BrokerMessage> messages) {
        boolean prepared = messages.stream().anyMatch(HalfMessages::isPrepared);
        if (!prepared) {
            return messages;
        }
        if (config.rejectTransactionMessage()) {
            throw new ResponseCodeException(ResponseCode.NO_PERMISSION, "the broker["
                    + runtime.config().identity().ip1() + "] sending transaction message is forbidden");
        }
        if (messages.size() != 1) {
            throw new ResponseCodeException(ResponseCode.MESSAGE_ILLEGAL,
                    "a transactional (TRAN_MSG) message cannot be sent in a batch");
        }
        return List.of(HalfMessages.half(messages.get(0)));
    }

    /** Marks the ledger stale, without waiting: the next use rebuilds it from the store (role changes). */
    void invalidate() {
        stale = true;
    }

    /** Runs {@code work} under the lock with the current ledger (rebuilt first if stale). */
    <T> T withLedger(Function<TransactionLedger, T> work) {
        lock.lock();
        try {
            if (stale || ledger == null) {
                stale = false;
                ledger = LedgerLoader.load(store, offsets());
                persist(ledger);
            }
            return work.apply(ledger);
        } finally {
            lock.unlock();
        }
    }

    /** Commits the ledger's progress as the {@code CID_RMQ_SYS_TRANS} offsets (persisted with the others). */
    void persist(TransactionLedger current) {
        ConsumerOffsetTable offsets = offsets();
        commitIfChanged(offsets, TransactionKeys.HALF_TOPIC, current.passedBelow());
        commitIfChanged(offsets, TransactionKeys.OP_TOPIC, current.opPassedBelow());
    }

    /** Commits unless nothing changed; a broker that never saw a transaction gets no offsets at all. */
    private void commitIfChanged(ConsumerOffsetTable offsets, String topic, long offset) {
        long current = offsets.query(TransactionKeys.GROUP, topic, TransactionKeys.QUEUE)
                .orElse(store.getMinOffsetInQueue(topic, TransactionKeys.QUEUE));
        if (current != offset) {
            offsets.commit(TransactionKeys.GROUP, topic, TransactionKeys.QUEUE, offset);
        }
    }

    private ConsumerOffsetTable offsets() {
        return runtime.metadata().consumerOffsets();
    }

    /**
     * Handles END_TRANSACTION. Null (no answer) for the outcome UNKNOWN, as RocketMQ; otherwise SUCCESS
     * once the outcome is stored, or the code saying why nothing was.
     */
    RemotingCommand end(RemotingChannel channel, RemotingCommand request) {
        if (!store.role().master()) {
            return RemotingCommand.responseTo(request, ResponseCode.SLAVE_NOT_AVAILABLE,
                    "this broker is a slave; end transactions at its master");
        }
        EndTransactionHeader header = EndTransactionHeader.parse(request);
        if (!header.commit() && !header.rollback()) {
            LOG.warn("producer {} ended transaction {} (half at {}) as UNKNOWN{}; the check-back will ask again",
                    channel.remoteAddressText(), header.transactionId(), header.commitLogOffset(),
                    header.fromTransactionCheck() ? " when checked" : "");
            return null;
        }
        // Read outside the lock: a stored record does not change, only the ledger's view of it does.
        Optional<StoredMessage> found = halfAt(header.commitLogOffset());
        return withLedger(current -> {
            Refusal refusal = refusal(header, found, current);
            if (refusal != null) {
                LOG.warn("END_TRANSACTION from {} refused: {}", channel.remoteAddressText(), refusal.remark());
                return RemotingCommand.responseTo(request, refusal.code(), refusal.remark());
            }
            StoredMessage half = found.orElseThrow();
            return header.commit() ? commit(request, half, current) : rollback(request, half, current);
        });
    }

    /** Why END may not end the half message it names. */
    private record Refusal(int code, String remark) {

        static Refusal of(String remark) {
            return new Refusal(ResponseCode.SYSTEM_ERROR, remark);
        }
    }

    /** Why END may not end the half message it names, or null (RocketMQ's codes and remarks first). */
    private Refusal refusal(EndTransactionHeader header, Optional<StoredMessage> found, TransactionLedger current) {
        if (found.isEmpty()) {
            return Refusal.of("Find prepared transaction message failed: no half message at CommitLog offset "
                    + header.commitLogOffset());
        }
        StoredMessage half = found.get();
        var properties = half.message().propertyMap();
        if (!header.fromTransactionCheck() && properties.containsKey(TransactionKeys.CHECK_IMMUNITY_SECONDS)
                && runtime.clock().millis() - half.message().bornTimestamp() > immunityMillis(properties)) {
            return new Refusal(ResponseCode.ILLEGAL_OPERATION, "the transaction ended after its "
                    + "CHECK_IMMUNITY_TIME_IN_SECONDS; it waits for the check-back");
        }
        if (!header.producerGroup().equals(properties.get(TransactionKeys.PGROUP))) {
            return Refusal.of("The producer group wrong: the half message belongs to "
                    + properties.get(TransactionKeys.PGROUP));
        }
        if (half.queueOffset() != header.tranStateTableOffset()) {
            return Refusal.of("The transaction state table offset wrong: the half message is at "
                    + half.queueOffset());
        }
        String notOpen = current.notOpen(half.queueOffset(), HalfMessages.rootOf(half));
        return notOpen == null ? null : Refusal.of("the half message at CommitLog offset "
                + header.commitLogOffset() + " is no longer open: " + notOpen);
    }

    /** The half message stored at {@code commitLogOffset}; empty for any other offset or record. */
    private Optional<StoredMessage> halfAt(long commitLogOffset) {
        try {
            return store.lookMessageByOffset(commitLogOffset)
                    .filter(m -> m.commitLogOffset() == commitLogOffset)
                    .filter(m -> TransactionKeys.HALF_TOPIC.equals(m.message().topic()));
        } catch (RuntimeException e) {
            // An offset inside a record reads as garbage; the decoder refuses it one way or another.
            return Optional.empty();
        }
    }

    /** The delay before a first check-back: {@code CHECK_IMMUNITY_TIME_IN_SECONDS}, never below transactionTimeOut. */
    long immunityMillis(java.util.Map<String, String> properties) {
        String seconds = properties.get(TransactionKeys.CHECK_IMMUNITY_SECONDS);
        long millis = 0;
        try {
            millis = seconds == null ? 0 : Long.parseLong(seconds.trim()) * 1000;
        } catch (NumberFormatException e) {
            millis = 0;
        }
        return Math.max(millis, config.timeoutMillis());
    }

    private RemotingCommand commit(RemotingCommand request, StoredMessage half, TransactionLedger current) {
        BrokerMessage message;
        try {
            // As a plain send: a delay level, else a timer property, holds the message back from here.
            message = timers.redirect(HalfMessages.committed(half, delay));
        } catch (IllegalArgumentException e) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR, e.getMessage());
        } catch (ResponseCodeException e) {
            return RemotingCommand.responseTo(request, e.responseCode(), "the committed message was not stored: "
                    + e.remark());
        }
        AppendedPut put = store.append(List.of(message), false);
        if (!put.stored()) {
            return RemotingCommand.responseTo(request, put.appended().status().responseCode(),
                    "the committed message was not stored: " + put.appended().detail());
        }
        runtime.stats().recordPut(message.topic(), 1, message.body().length);
        runtime.stats().events().committed(realTopic(half));
        if (!writeOp(half, current, true)) {
            LOG.error("committed message of half {} stored at {}, but its op record was not; a restart may check "
                    + "it again", half.commitLogOffset(), put.appended().commitLogOffset());
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
    }

    private RemotingCommand rollback(RemotingCommand request, StoredMessage half, TransactionLedger current) {
        if (!writeOp(half, current, false)) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR,
                    "the rollback was not stored; the check-back will ask again");
        }
        runtime.stats().events().rolledBack(realTopic(half));
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
    }

    /** The topic the half message's producer sent to (RocketMQ's {@code topic} label of the transaction figures). */
    static String realTopic(StoredMessage half) {
        return half.message().propertyMap().get(TransactionKeys.REAL_TOPIC);
    }

    /**
     * Stores the op record of {@code half} and ends its transaction in the ledger; true when the op is
     * stored. Runs under the lock.
     *
     * @param endedAnyway end the transaction in the ledger even when the op is not stored (the committed
     *     message already is)
     */
    boolean writeOp(StoredMessage half, TransactionLedger current, boolean endedAnyway) {
        long root = HalfMessages.rootOf(half);
        // Ended through an older copy, the op also names the newest one: it is what the check-back (ours
        // after a restart, or a stock broker's) would otherwise ask about next.
        long newest = Math.max(half.queueOffset(), current.newestCopy(root));
        long[] offsets = newest > half.queueOffset() ? new long[] {half.queueOffset(), newest}
                : new long[] {half.queueOffset()};
        AppendedPut op = store.append(List.of(HalfMessages.op(offsets, half.message().storeHost(),
                runtime.clock().millis())), false);
        if (op.stored() || endedAnyway) {
            current.ended(root, half.queueOffset());
        }
        if (!op.stored()) {
            LOG.error("op record for half {} not stored: {} {}", half.queueOffset(), op.appended().status(),
                    op.appended().detail());
            return false;
        }
        current.opStored(op.appended().queueOffset(), newest);
        return true;
    }
}
