package org.modmq.broker.stats;

import java.lang.management.ManagementFactory;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;

/**
 * Whether this broker is loaded enough that a master should send consumers to an in-sync replica: its
 * send queue holds at least {@code readOffloadSendQueueDepth} requests, or the process used at least
 * {@code readOffloadCpuRatio} of the machine's CPU over the last sampling period. {@link #doWork()} takes
 * one CPU sample (the broker's scheduler runs it every second); {@link #loaded()} is a cheap read.
 * Thread-safe.
 */
public final class BrokerLoad {

    private final int sendQueueDepth;
    private final double cpuRatio;
    private final DoubleSupplier processCpu;
    private volatile IntSupplier sendQueue = () -> 0;
    private volatile double lastCpu;

    /**
     * @param sendQueueDepth queued sends from which the broker counts as loaded
     * @param cpuRatio process CPU share (0..1 of all cores) from which it counts as loaded
     * @param processCpu the process's CPU share since the previous call (negative when unknown)
     */
    public BrokerLoad(int sendQueueDepth, double cpuRatio, DoubleSupplier processCpu) {
        this.sendQueueDepth = sendQueueDepth;
        this.cpuRatio = cpuRatio;
        this.processCpu = Objects.requireNonNull(processCpu, "processCpu");
    }

    /** The JVM's own reading of the process's CPU share. */
    public static DoubleSupplier jvmProcessCpu() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun::getProcessCpuLoad;
        }
        return () -> -1;
    }

    /** Where the send executor's queue depth is read from (set once the executors exist). */
    public void sendQueue(IntSupplier depth) {
        this.sendQueue = Objects.requireNonNull(depth, "depth");
    }

    /** Takes a CPU sample; returns 1. */
    public int doWork() {
        lastCpu = processCpu.getAsDouble();
        return 1;
    }

    /** Whether reads should move to an in-sync replica now. */
    public boolean loaded() {
        return sendQueue.getAsInt() >= sendQueueDepth || lastCpu >= cpuRatio;
    }
}
