package org.modmq.broker.transaction;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.broker.runtime.BrokerRuntime;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Transactional messages for one broker, wired once by the store binding: the send hook that turns a
 * prepared send into its half message, the END_TRANSACTION processor, and the check-back agent, which
 * runs every {@code transactionCheckInterval} while the store is master only. It follows the store's
 * role (classic and controller mode alike, at start and at runtime): becoming master rebuilds the
 * ledger from the store and the {@code CID_RMQ_SYS_TRANS} offsets (a new master after a failover
 * carries on from what its old master committed and replicated) and starts the agent; becoming a
 * replica stops it. Thread-safe; {@link #close()} is idempotent.
 */
public final class Transactions implements AutoCloseable {

    /** The request codes of the END_TRANSACTION processor. */
    public static final int[] END_CODES = {RequestCode.END_TRANSACTION};

    private static final Logger LOG = LoggerFactory.getLogger(Transactions.class);

    private final BrokerRuntime runtime;
    private final TransactionService service;
    private final TransactionCheckAgent agent;
    private ScheduledFuture<?> scheduled;
    private boolean closed;

    private Transactions(BrokerRuntime runtime, MessageStore store) {
        this.runtime = runtime;
        this.service = new TransactionService(runtime, store);
        this.agent = new TransactionCheckAgent(service, new CheckRequests(runtime.producers(), store,
                runtime.config().identity().brokerName()));
    }

    /** Wires transactions for {@code store} and starts the check-back if the store is master. */
    public static Transactions open(BrokerRuntime runtime, MessageStore store) {
        Transactions transactions = new Transactions(Objects.requireNonNull(runtime, "runtime"),
                Objects.requireNonNull(store, "store"));
        store.addRoleListener(transactions::roleChanged);
        transactions.roleChanged(store.role());
        return transactions;
    }

    /**
     * The send hook: what to store for a send's messages (a prepared message becomes its half message).
     *
     * @throws org.modmq.remoting.protocol.ResponseCodeException when a prepared send is refused
     */
    public List<BrokerMessage> toStore(List<BrokerMessage> messages) {
        return service.toStore(messages);
    }

    /** The END_TRANSACTION (37) processor. */
    public RequestProcessor endTransactionProcessor() {
        return RequestProcessor.sync(service::end);
    }

    /** One check-back pass now (tests and tools); returns the producers asked. */
    public int checkNow() {
        return agent.doWork();
    }

    /** Whether the check-back is scheduled (the store is master). */
    public synchronized boolean checking() {
        return scheduled != null;
    }

    private synchronized void roleChanged(RoleState role) {
        if (closed) {
            return;
        }
        service.invalidate();
        if (role.master() && scheduled == null) {
            long period = service.config().checkIntervalMillis();
            scheduled = runtime.scheduler().scheduleWithFixedDelay(this::guardedPass, period, period,
                    TimeUnit.MILLISECONDS);
            LOG.info("transaction check-back started (every {} ms)", period);
        } else if (!role.master() && scheduled != null) {
            scheduled.cancel(false);
            scheduled = null;
            LOG.info("transaction check-back stopped: this broker is a replica");
        }
    }

    private void guardedPass() {
        try {
            agent.doWork();
        } catch (RuntimeException e) {
            LOG.warn("transaction check-back pass failed", e);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (scheduled != null) {
            scheduled.cancel(false);
            scheduled = null;
        }
    }
}
