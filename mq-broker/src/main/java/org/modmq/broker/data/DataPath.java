package org.modmq.broker.data;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;
import org.modmq.broker.config.BrokerIdentityConfig;
import org.modmq.broker.runtime.BrokerRuntime;
import org.modmq.broker.schedule.DelayRedirect;
import org.modmq.broker.transaction.Transactions;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.store.MessageStore;

/**
 * What the data-path processors share: the broker runtime, the store, the writer and id generation.
 * Immutable holder of thread-safe parts; the store binding owns the store.
 */
public final class DataPath {

    private volatile StoreIp storeIp;
    private final BrokerRuntime runtime;
    private final MessageStore store;
    private final StoreWriter writer;
    private final UniqueKeys uniqueKeys;
    private final PullRouting routing;
    private final DelayRedirect delay;
    private final Transactions transactions;

    /**
     * @param runtime the broker runtime
     * @param store the open store (not owned); it decides role, durability and replication
     * @param transactions transactional messages on this store (not owned)
     */
    public DataPath(BrokerRuntime runtime, MessageStore store, Transactions transactions) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.store = Objects.requireNonNull(store, "store");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.writer = new StoreWriter(store, runtime.ackGate());
        this.uniqueKeys = new UniqueKeys(storeIp(runtime.config().identity().ip1()), runtime.clock());
        this.routing = new PullRouting(() -> runtime.current().consume(), runtime.config().controller().enabled(),
                store::getCommitLogMaxOffset, PullRouting.physicalMemory(), store::replicas, runtime.load()::loaded,
                runtime.registeredId()::get);
        this.delay = new DelayRedirect(runtime.config().store().delayLevels());
    }

    BrokerRuntime runtime() {
        return runtime;
    }

    /** Who the broker is now ({@code brokerPermission} may change at run time). */
    BrokerIdentityConfig identity() {
        return runtime.current().identity();
    }

    MessageStore store() {
        return store;
    }

    /** Whether the store is master now (the one place the role is decided). */
    boolean master() {
        return store.role().master();
    }

    StoreWriter writer() {
        return writer;
    }

    Transactions transactions() {
        return transactions;
    }

    PullRouting routing() {
        return routing;
    }

    /** Where a message with a delay level is stored. */
    DelayRedirect delay() {
        return delay;
    }

    String newUniqueKey() {
        return uniqueKeys.next();
    }

    /** {@code brokerIP1} and the port the request arrived on (the main port): the STOREHOST of new records. */
    InetSocketAddress storeHost(RemotingChannel channel) {
        return new InetSocketAddress(storeIp(identity().ip1()), channel.localAddress().getPort());
    }

    /** The address of {@code ip1}, parsed once: parsing it for every message cost a send measurable CPU. */
    private InetAddress storeIp(String ip1) {
        StoreIp cached = storeIp;
        if (cached == null || !cached.ip1().equals(ip1)) {
            cached = new StoreIp(ip1, new InetSocketAddress(ip1, 0).getAddress());
            storeIp = cached;
        }
        return cached.address();
    }

    private record StoreIp(String ip1, InetAddress address) {
    }
}
