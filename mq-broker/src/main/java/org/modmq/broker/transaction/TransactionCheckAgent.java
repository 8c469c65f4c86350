package org.modmq.broker.transaction;

import java.util.List;
import java.util.Map;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.StoredMessage;
import org.modmq.broker.config.TransactionConfig;
import org.modmq.broker.metadata.TopicConfigTable;
import org.modmq.remoting.protocol.body.Perm;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.modmq.store.AppendedPut;
import org.modmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check-back, RocketMQ's {@code TransactionalMessageCheckService}: one {@link #doWork()} pass
 * (every {@code transactionCheckInterval}) walks the half queue from where the last pass stopped and,
 * for each half message copy:
 * <ul>
 *   <li>its transaction ended, or a newer copy of it exists: passed over;</li>
 *   <li>checked {@code transactionCheckMax} times already (or older than {@code fileReservedTime}):
 *       discarded into {@code TRANS_CHECK_MAX_TIME_TOPIC} with an error log line, and an op record
 *       written so that no later pass or new master checks it again;</li>
 *   <li>stored during this pass: the pass stops (it is checked next time);</li>
 *   <li>inside its {@code CHECK_IMMUNITY_TIME_IN_SECONDS}: re-put unchecked at the queue's end;</li>
 *   <li>younger than {@code transactionTimeOut}: the pass stops;</li>
 *   <li>otherwise: re-put with {@code TRANSACTION_CHECK_TIMES} + 1 and CHECK_TRANSACTION_STATE sent
 *       for the new copy to a live producer of its group.</li>
 * </ul>
 * Then the progress (half and op offsets of {@code CID_RMQ_SYS_TRANS}) is committed. Runs only while
 * the store is master. Each decision takes the {@link TransactionService} lock, so an END arriving
 * meanwhile is ordered before or after it. Any thread; passes are serialized by the lock's holder.
 */
final class TransactionCheckAgent {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionCheckAgent.class);

    private final TransactionService service;
    private final CheckRequests checks;
    private final MessageStore store;
    private final TransactionConfig config;
    private final long reservedMillis;

    TransactionCheckAgent(TransactionService service, CheckRequests checks) {
        this.service = service;
        this.checks = checks;
        this.store = service.store();
        this.config = service.config();
        this.reservedMillis = service.runtime().config().store().fileReservedHours() * 3_600_000L;
    }

    /** What the pass did with one copy. */
    private enum Step { PASSED, STOP }

    /** One pass; returns the number of check-backs sent (0 on a replica). */
    int doWork() {
        if (!store.role().master()) {
            return 0;
        }
        long start = service.runtime().clock().millis();
        int[] sent = new int[1];
        long at = service.withLedger(TransactionLedger::passedBelow);
        boolean stopped = false;
        while (!stopped && at < store.getMaxOffsetInQueue(TransactionKeys.HALF_TOPIC, TransactionKeys.QUEUE)) {
            QueueScan.Chunk chunk = QueueScan.read(store, TransactionKeys.HALF_TOPIC, at);
            if (chunk.next() <= at) {
                break;
            }
            long chunkEnd = chunk.next();
            long done = at;
            for (StoredMessage copy : chunk.messages()) {
                Step step = service.withLedger(ledger -> handle(copy, ledger, start, sent));
                if (step == Step.STOP) {
                    stopped = true;
                    break;
                }
                done = copy.queueOffset() + 1;
            }
            at = stopped ? done : chunkEnd;
            long passed = at;
            service.withLedger(ledger -> {
                ledger.passTo(passed, store.getMaxOffsetInQueue(TransactionKeys.OP_TOPIC, TransactionKeys.QUEUE));
                service.persist(ledger);
                return null;
            });
        }
        if (sent[0] > 0) {
            LOG.info("transaction check-back: {} producers asked, half offset {}", sent[0], at);
        }
        return sent[0];
    }

    private Step handle(StoredMessage copy, TransactionLedger ledger, long start, int[] sent) {
        long queueOffset = copy.queueOffset();
        if (queueOffset < ledger.passedBelow()) {
            return Step.PASSED;
        }
        long root = HalfMessages.rootOf(copy);
        if (ledger.skip(queueOffset, root)) {
            return Step.PASSED;
        }
        long now = service.runtime().clock().millis();
        int checkTimes = HalfMessages.checkTimes(copy);
        if (checkTimes >= config.checkMax() || now - copy.message().bornTimestamp() > reservedMillis) {
            return discard(copy, ledger, checkTimes) ? Step.PASSED : Step.STOP;
        }
        if (copy.storeTimestamp() >= start) {
            return Step.STOP;
        }
        Map<String, String> properties = copy.message().propertyMap();
        long age = now - copy.message().bornTimestamp();
        boolean immunitySet = properties.containsKey(TransactionKeys.CHECK_IMMUNITY_SECONDS);
        if (immunitySet && age >= 0 && age < service.immunityMillis(properties)) {
            return reput(copy, root, -1, ledger) != null ? Step.PASSED : Step.STOP;
        }
        if (!immunitySet && age >= 0 && age < config.timeoutMillis()) {
            return Step.STOP;
        }
        AppendedPut put = reput(copy, root, checkTimes + 1, ledger);
        if (put == null) {
            return Step.STOP;
        }
        store.lookMessageByOffset(put.appended().commitLogOffset()).ifPresent(stored -> {
            LOG.info("check transaction {} of {} (check {}): half at {}, copy at {}",
                    properties.get(MessageProperties.UNIQ_KEY), properties.get(TransactionKeys.REAL_TOPIC),
                    checkTimes + 1, copy.commitLogOffset(), stored.commitLogOffset());
            if (checks.send(stored, put.appended().msgIds().get(0))) {
                sent[0]++;
            }
        });
        return Step.PASSED;
    }

    /** Re-puts {@code copy} at the half queue's end; null (logged) when the store refused. */
    private AppendedPut reput(StoredMessage copy, long root, int checkTimes, TransactionLedger ledger) {
        AppendedPut put = store.append(List.of(HalfMessages.copy(copy, root, checkTimes)), false);
        if (!put.stored()) {
            LOG.warn("check-back stops: re-put of half {} refused: {} {}", copy.queueOffset(), put.appended().status(),
                    put.appended().detail());
            return null;
        }
        ledger.copied(root, put.appended().queueOffset());
        return put;
    }

    private boolean discard(StoredMessage copy, TransactionLedger ledger, int checkTimes) {
        TopicConfigTable topics = service.runtime().metadata().topics();
        if (topics.get(TransactionKeys.CHECK_MAX_TOPIC).isEmpty()) {
            topics.upsert(TopicConfig.of(TransactionKeys.CHECK_MAX_TOPIC, 1, Perm.READ_WRITE));
        }
        AppendedPut put = store.append(List.of(HalfMessages.discarded(copy)), false);
        if (!put.stored()) {
            LOG.warn("check-back stops: discard of half {} refused: {} {}", copy.queueOffset(),
                    put.appended().status(), put.appended().detail());
            return false;
        }
        var properties = copy.message().propertyMap();
        LOG.error("transaction {} of topic {} was checked {} times without an answer (transactionCheckMax {}); "
                        + "half message at {} discarded into {} at {}", properties.get(MessageProperties.UNIQ_KEY),
                properties.get(TransactionKeys.REAL_TOPIC), checkTimes, config.checkMax(), copy.commitLogOffset(),
                TransactionKeys.CHECK_MAX_TOPIC, put.appended().commitLogOffset());
        service.writeOp(copy, ledger, true);
        service.runtime().stats().events().halfEnded(properties.get(TransactionKeys.REAL_TOPIC));
        return true;
    }
}
