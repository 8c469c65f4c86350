package org.modmq.store.faulty.control;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The switchboard of the faulty backend: which operations fail with which error on which files, how
 * long a force is held, and the power loss. Every backend wrapped with this control obeys it at once;
 * faults stay until cleared.
 *
 * <p>Thread-safe: tests switch faults while the store's threads run.
 */
public final class FaultControl {

    private static final Logger LOG = LoggerFactory.getLogger(FaultControl.class);

    private record Rule(Fault fault, Predicate<Path> files) {
    }

    private final Map<Operation, Rule> rules = new EnumMap<>(Operation.class);
    private final Map<Operation, AtomicLong> injected = new EnumMap<>(Operation.class);
    private final List<FaultyStorageBackend> backends = new CopyOnWriteArrayList<>();
    private final ReentrantLock slowLock = new ReentrantLock();
    private final Condition slowChanged = slowLock.newCondition();
    private long slowForceNanos;
    private volatile boolean forcesSimulated;

    /** A control with no fault switched on. */
    public FaultControl() {
        for (Operation operation : Operation.values()) {
            injected.put(operation, new AtomicLong());
        }
    }

    /** Fails every {@code operation} on any file with {@code fault} from now on. */
    public void fail(Operation operation, Fault fault) {
        fail(operation, fault, file -> true);
    }

    /** Fails {@code operation} with {@code fault} on the files {@code files} accepts (e.g. the CommitLog's). */
    public void fail(Operation operation, Fault fault, Predicate<Path> files) {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(fault, "fault");
        Objects.requireNonNull(files, "files");
        synchronized (rules) {
            rules.put(operation, new Rule(fault, files));
        }
        LOG.info("fault on: {} fails with {}", operation, fault);
    }

    /** Lets {@code operation} succeed again. */
    public void clear(Operation operation) {
        synchronized (rules) {
            rules.remove(Objects.requireNonNull(operation, "operation"));
        }
        LOG.info("fault off: {}", operation);
    }

    /** Clears every fault and releases forces held by {@link #slowForces}. Does not undo a power loss. */
    public void clearAll() {
        synchronized (rules) {
            rules.clear();
        }
        slowForces(Duration.ZERO);
        LOG.info("all faults off");
    }

    /**
     * Holds every force for {@code delay} before it starts ({@link Duration#ZERO}: no longer); forces
     * already held are released early when the delay is shortened.
     */
    public void slowForces(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        slowLock.lock();
        try {
            slowForceNanos = Math.max(0, delay.toNanos());
            slowChanged.signalAll();
        } finally {
            slowLock.unlock();
        }
    }

    /**
     * With {@code true}, a force only marks bytes durable for the power loss and does not force the
     * device (much faster on a busy disk; the simulation defines what is durable either way). Files get
     * their real force when the power is lost, when a segment closes and when the backend closes.
     */
    public void simulateForces(boolean simulated) {
        forcesSimulated = simulated;
    }

    boolean forcesSimulated() {
        return forcesSimulated;
    }

    /** How many times a fault was injected into {@code operation}. */
    public long injected(Operation operation) {
        return injected.get(Objects.requireNonNull(operation, "operation")).get();
    }

    /**
     * Power loss: every backend under this control drops each byte not forced (its files are left as
     * they were at the last successful force of each range) and refuses every further operation with a
     * {@link org.modmq.api.spi.storage.StorageException}, until it is closed. Open a new backend (and a
     * new store) on the same files to recover. Waits for segment operations in progress.
     */
    public void powerLoss() {
        slowForces(Duration.ZERO);
        for (FaultyStorageBackend backend : backends) {
            backend.powerLoss();
        }
        backends.clear();
        LOG.info("power loss simulated");
    }

    void bind(FaultyStorageBackend backend) {
        backends.add(backend);
    }

    void unbind(FaultyStorageBackend backend) {
        backends.remove(backend);
    }

    /** Throws the injected error when {@code operation} on {@code file} is to fail. */
    void check(Operation operation, Path file, String what) {
        Fault fault = faultFor(operation, file);
        if (fault != null) {
            throw fault.exception(what);
        }
    }

    /** The fault {@code operation} on {@code file} is to fail with (counted as injected), or null. */
    Fault faultFor(Operation operation, Path file) {
        Rule rule;
        synchronized (rules) {
            rule = rules.get(operation);
        }
        if (rule == null || !rule.files().test(file)) {
            return null;
        }
        injected.get(operation).incrementAndGet();
        return rule.fault();
    }

    /** Holds the calling (forcing) thread for the slow-force delay; returns early when it is lowered. */
    void holdForce() {
        slowLock.lock();
        try {
            long deadline = System.nanoTime() + slowForceNanos;
            long left = slowForceNanos;
            while (left > 0) {
                slowChanged.awaitNanos(left);
                left = Math.min(deadline - System.nanoTime(), slowForceNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            slowLock.unlock();
        }
    }
}
