package org.modmq.broker.timer;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.modmq.broker.config.TimerConfig;
import org.modmq.broker.stats.MessageEvents;
import org.modmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link TimerAgent} on its own daemon thread ({@code TimerAgent}): {@code doWork()} in a loop,
 * parking when idle until the awaited slot ends (at most a tenth of the precision, 10 ms; 100 ms on a
 * replica, woken when the store becomes master) and a second after a failure. The files live
 * under {@code <storePathRootDir>/timer/}: {@code wheel}, {@code log/} and {@code checkpoint}. The agent
 * itself follows the store's role, so the runner runs on every broker and delivers only on a master.
 *
 * <p>Thread-safe; {@link #close()} is idempotent and stops the thread before the store closes.
 */
public final class TimerRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TimerRunner.class);
    /** RocketMQ's wheel has 7 days of 1 s slots; modmq keeps the count, so 100 ms slots span 16.8 hours. */
    static final int SLOTS = 7 * 86_400;
    static final int SEGMENT_RECORDS = 1 << 20;
    private static final long CLOSE_WAIT_MS = 3_000;

    private final TimerAgent agent;
    private final Thread thread;
    private final long idleMillis;
    private volatile boolean running = true;

    private TimerRunner(TimerAgent agent, long idleMillis) {
        this.agent = agent;
        this.idleMillis = idleMillis;
        this.thread = new Thread(this::run, "TimerAgent");
        this.thread.setDaemon(true);
    }

    /**
     * Opens the timer files under {@code rootDir/timer} and starts the agent thread.
     *
     * @param storeHost the broker's address, STOREHOST of the progress markers
     *
     * @throws java.io.UncheckedIOException when the files cannot be opened
     */
    public static TimerRunner start(MessageStore store, InetSocketAddress storeHost, TimerConfig config, Clock clock,
                                    Path rootDir) {
        return start(store, storeHost, config, clock, rootDir, new MessageEvents());
    }

    /**
     * As {@link #start(MessageStore, InetSocketAddress, TimerConfig, Clock, Path)}, counting timers enqueued
     * and dequeued in {@code events}.
     */
    public static TimerRunner start(MessageStore store, InetSocketAddress storeHost, TimerConfig config, Clock clock,
                                    Path rootDir, MessageEvents events) {
        Objects.requireNonNull(store, "store");
        Path dir = Objects.requireNonNull(rootDir, "rootDir").resolve("timer");
        TimerIndex index = new TimerIndex(dir, SLOTS, config.precisionMs(), SEGMENT_RECORDS);
        TimerAgent agent = new TimerAgent(new StoreTimerAccess(store, storeHost), index, config, clock,
                dir.resolve("checkpoint"), events);
        TimerRunner runner = new TimerRunner(agent, Math.max(1, Math.min(10, config.precisionMs() / 10)));
        // A standby agent parks longer between reads; a promotion must not wait for that park to end.
        store.addRoleListener(role -> {
            if (role.master()) {
                LockSupport.unpark(runner.thread);
            }
        });
        runner.thread.start();
        return runner;
    }

    private void run() {
        while (running) {
            try {
                if (agent.doWork() == 0) {
                    // Wake when the next slot ends, so a timer is late by less than one precision.
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(agent.idleMs(idleMillis)));
                }
            } catch (RuntimeException e) {
                LOG.error("timer agent step failed; retrying in 1 s", e);
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            }
        }
    }

    /** Stops the thread, then closes the agent (last checkpoint) on the calling thread. */
    @Override
    public void close() {
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
        }
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("timer agent thread did not stop within 10 s; closing its files anyway");
        }
        agent.close(CLOSE_WAIT_MS);
    }
}
