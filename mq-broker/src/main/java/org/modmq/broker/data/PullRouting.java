package org.modmq.broker.data;

import io.netty.buffer.ByteBuf;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.modmq.broker.config.ConsumeConfig;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.store.GetMessageResult;

/**
 * Chooses a pull answer's {@code suggestWhichBrokerId} (protocol notes 8.7): the broker id the stock
 * client pulls that queue from next (it falls back to another address of the broker set when the id
 * is not in the route, which is how consumers keep reading from a slave whose master is gone).
 *
 * <ul>
 *   <li>{@code slaveReadEnable=false}: always 0, the master.</li>
 *   <li>Otherwise the consumer is <em>behind</em> when the CommitLog distance from the last record
 *       read to the log's end exceeds {@code accessMessageInMemoryMaxRatio} percent of physical memory
 *       (it reads cold data). Behind: the group's {@code whichBrokerWhenConsumeSlowly} (default 1), on
 *       a master only while a slave is connected; not behind: the group's {@code brokerId}
 *       (default 0) — so a slave serving a consumer that caught up sends it back to the master.</li>
 * </ul>
 *
 * <p>Stateless apart from its suppliers; thread-safe.
 */
final class PullRouting {

    /** Position of PHYSICALOFFSET in a stored record (protocol notes 5.1). */
    private static final int PHYSICAL_OFFSET_POSITION = 28;
    private static final long MASTER_ID = 0;

    private final ConsumeConfig consume;
    private final LongSupplier commitLogMaxOffset;
    private final long memoryBytes;
    private final BooleanSupplier slavesConnected;

    /**
     * @param consume {@code slaveReadEnable} and {@code accessMessageInMemoryMaxRatio}
     * @param commitLogMaxOffset the local CommitLog's end (bytes)
     * @param memoryBytes physical memory of the host
     * @param slavesConnected whether this master has a slave to send slow consumers to
     */
    PullRouting(ConsumeConfig consume, LongSupplier commitLogMaxOffset, long memoryBytes,
                BooleanSupplier slavesConnected) {
        this.consume = Objects.requireNonNull(consume, "consume");
        this.commitLogMaxOffset = Objects.requireNonNull(commitLogMaxOffset, "commitLogMaxOffset");
        this.memoryBytes = memoryBytes;
        this.slavesConnected = Objects.requireNonNull(slavesConnected, "slavesConnected");
    }

    /**
     * @param group the pulling group's settings
     * @param master whether this broker is a master
     * @param result what the pull read (its records are not released here)
     * @return the broker id to suggest
     */
    long suggest(SubscriptionGroupConfig group, boolean master, GetMessageResult result) {
        if (!consume.slaveReadEnable()) {
            return MASTER_ID;
        }
        if (behind(result.messages()) && (!master || slavesConnected.getAsBoolean())) {
            return group.whichBrokerWhenConsumeSlowly();
        }
        return group.brokerId();
    }

    private boolean behind(List<ByteBuf> records) {
        if (records.isEmpty()) {
            return false;
        }
        ByteBuf last = records.get(records.size() - 1);
        long lag = commitLogMaxOffset.getAsLong() - last.getLong(last.readerIndex() + PHYSICAL_OFFSET_POSITION);
        return lag > memoryBytes / 100 * consume.accessMessageInMemoryMaxRatio();
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
