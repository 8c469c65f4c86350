package org.modmq.broker.data;

import io.netty.buffer.ByteBuf;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.modmq.api.spi.replication.ReplicaLink;
import org.modmq.api.spi.replication.ReplicaState;
import org.modmq.broker.config.ConsumeConfig;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.store.GetMessageResult;

/**
 * Chooses a pull answer's {@code suggestWhichBrokerId} (docs/protocol.md section 8.7): the broker id the stock
 * client pulls that queue from next (it falls back to another address of the broker set when the id is
 * not in the route, which is how consumers keep reading from a replica whose master is gone).
 *
 * <p>The master decides. It sends a consumer to an in-sync replica when the consumer reads cold data
 * (the CommitLog distance from the last record read to the log's end exceeds
 * {@code accessMessageInMemoryMaxRatio} percent of physical memory) or the master is loaded (its send
 * queue or CPU, see {@code BrokerLoad}) — and only to a replica that already holds what the consumer reads
 * next; otherwise it keeps the consumer. In controller mode an in-sync replica is a SyncStateSet member and
 * this is on by default; in classic replication it needs {@code slaveReadEnable=true} (RocketMQ's rule) and
 * a replica without a known id is named by the group's {@code whichBrokerWhenConsumeSlowly}. A replica
 * keeps a consumer that is behind and sends one that caught up back to the group's {@code brokerId} (the
 * master, 0).
 *
 * <p>Stateless apart from its suppliers; thread-safe.
 */
final class PullRouting {

    /** Position of PHYSICALOFFSET in a stored record (docs/store-format.md section 2). */
    private static final int PHYSICAL_OFFSET_POSITION = 28;
    private static final long MASTER_ID = 0;

    private final Supplier<ConsumeConfig> consume;
    private final boolean controllerMode;
    private final LongSupplier commitLogMaxOffset;
    private final long memoryBytes;
    private final Supplier<List<ReplicaState>> replicas;
    private final BooleanSupplier masterLoaded;
    private final LongSupplier selfId;

    /**
     * @param consume {@code slaveReadEnable} and {@code accessMessageInMemoryMaxRatio} in force (they may change
     *     at run time)
     * @param controllerMode whether the SyncStateSet says which replicas are in sync
     * @param commitLogMaxOffset the local CommitLog's end (bytes)
     * @param memoryBytes physical memory of the host
     * @param replicas a master's connected replicas
     * @param masterLoaded whether this broker is loaded
     * @param selfId this broker's id as a replica registers it
     */
    PullRouting(Supplier<ConsumeConfig> consume, boolean controllerMode, LongSupplier commitLogMaxOffset, long memoryBytes,
                Supplier<List<ReplicaState>> replicas, BooleanSupplier masterLoaded, LongSupplier selfId) {
        this.consume = Objects.requireNonNull(consume, "consume");
        this.controllerMode = controllerMode;
        this.commitLogMaxOffset = Objects.requireNonNull(commitLogMaxOffset, "commitLogMaxOffset");
        this.memoryBytes = memoryBytes;
        this.replicas = Objects.requireNonNull(replicas, "replicas");
        this.masterLoaded = Objects.requireNonNull(masterLoaded, "masterLoaded");
        this.selfId = Objects.requireNonNull(selfId, "selfId");
    }

    /**
     * @param group the pulling group's settings
     * @param master whether this broker is a master
     * @param result what the pull read (its records are not released here)
     * @return the broker id to suggest
     */
    long suggest(SubscriptionGroupConfig group, boolean master, GetMessageResult result) {
        if (!controllerMode && !consume.get().slaveReadEnable()) {
            return MASTER_ID;
        }
        List<ByteBuf> records = result.messages();
        boolean behind = behind(records);
        if (!master) {
            return behind ? (controllerMode ? selfId.getAsLong() : group.whichBrokerWhenConsumeSlowly())
                    : group.brokerId();
        }
        if (records.isEmpty() || !(behind || masterLoaded.getAsBoolean())) {
            return group.brokerId();
        }
        long needed = nextRead(records);
        ReplicaState best = null;
        for (ReplicaState replica : replicas.get()) {
            if (replica.inSync() && replica.ackedOffset() >= needed
                    && (best == null || replica.ackedOffset() > best.ackedOffset())) {
                best = replica;
            }
        }
        if (best == null) {
            return group.brokerId();
        }
        return best.brokerId() == ReplicaLink.UNKNOWN_ID ? group.whichBrokerWhenConsumeSlowly() : best.brokerId();
    }

    private boolean behind(List<ByteBuf> records) {
        if (records.isEmpty()) {
            return false;
        }
        // RocketMQ measures from the start of the last record read.
        ByteBuf last = records.get(records.size() - 1);
        long lag = commitLogMaxOffset.getAsLong() - last.getLong(last.readerIndex() + PHYSICAL_OFFSET_POSITION);
        return lag > memoryBytes / 100 * consume.get().accessMessageInMemoryMaxRatio();
    }

    /** The CommitLog offset just after the last record read: what the consumer needs next. */
    private static long nextRead(List<ByteBuf> records) {
        ByteBuf last = records.get(records.size() - 1);
        return last.getLong(last.readerIndex() + PHYSICAL_OFFSET_POSITION) + last.getInt(last.readerIndex());
    }

    /** Physical memory of the host, or the JVM's heap limit when the platform does not say. */
    static long physicalMemory() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getTotalMemorySize();
        }
        return Runtime.getRuntime().maxMemory();
    }
}
