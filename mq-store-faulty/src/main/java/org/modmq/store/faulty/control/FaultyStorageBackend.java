package org.modmq.store.faulty.control;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps a real backend: segments it opens inject the faults its {@link FaultControl} switches on and
 * journal unforced writes for {@link #powerLoss()}.
 *
 * <p>Thread-safe. A read-write gate separates segment operations (shared) from the power loss
 * (exclusive); after it every operation but close fails with a {@link StorageException}.
 */
final class FaultyStorageBackend implements StorageBackend {

    private static final Logger LOG = LoggerFactory.getLogger(FaultyStorageBackend.class);

    /** A segment closed while it still had unforced writes: a power loss takes them back too. */
    private record ClosedUnforced(Path path, int capacity, List<UndoJournal.Entry> undo) {
    }

    private final StorageBackend inner;
    private final FaultControl control;
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
    private final Set<FaultySegment> open = ConcurrentHashMap.newKeySet();
    private final List<ClosedUnforced> closedUnforced = new ArrayList<>();
    private volatile boolean crashed;

    FaultyStorageBackend(StorageBackend inner, FaultControl control) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.control = Objects.requireNonNull(control, "control");
        control.bind(this);
    }

    @Override
    public String name() {
        return FaultyStorage.NAME;
    }

    @Override
    public boolean holdsWritesInProcess() {
        return inner.holdsWritesInProcess();
    }

    /** The name of the backend that does the I/O. */
    String delegateName() {
        return inner.name();
    }

    @Override
    public Segment open(Path file, int capacity) {
        enter("open " + file);
        try {
            control.check(Operation.OPEN, file, "create segment " + file + " of " + capacity + " bytes");
            FaultySegment segment = new FaultySegment(inner.open(file, capacity), control, this);
            open.add(segment);
            return segment;
        } finally {
            exit();
        }
    }

    /** Enters the shared side of the gate, refusing after a power loss. */
    void enter(String what) {
        gate.readLock().lock();
        if (crashed) {
            gate.readLock().unlock();
            throw new StorageException("cannot " + what + ": the machine lost power (simulated)",
                    new java.io.IOException("power loss (injected)"));
        }
    }

    void exit() {
        gate.readLock().unlock();
    }

    boolean crashed() {
        return crashed;
    }

    /** A segment closed or deleted; with unforced writes left, a power loss must still take them back. */
    void closed(FaultySegment segment) {
        if (!open.remove(segment) || crashed) {
            return;
        }
        List<UndoJournal.Entry> undo = segment.drainUndo();
        if (!undo.isEmpty()) {
            synchronized (closedUnforced) {
                closedUnforced.add(new ClosedUnforced(segment.path(), segment.capacity(), undo));
            }
        }
    }

    /** Bytes a power loss now would take back, over the open segments. */
    long unforcedBytes() {
        long bytes = 0;
        for (FaultySegment segment : open) {
            bytes += segment.unforcedBytes();
        }
        return bytes;
    }

    /** See {@link FaultControl#powerLoss()}. Idempotent. */
    void powerLoss() {
        gate.writeLock().lock();
        try {
            if (crashed) {
                return;
            }
            crashed = true;
            for (FaultySegment segment : open) {
                segment.restoreForced();
            }
            synchronized (closedUnforced) {
                for (ClosedUnforced closed : closedUnforced) {
                    if (Files.exists(closed.path())) {
                        try (Segment segment = inner.open(closed.path(), closed.capacity())) {
                            FaultySegment.restore(segment, closed.undo());
                        }
                    }
                }
                closedUnforced.clear();
            }
            LOG.info("power loss: {} segments put back to their last force", open.size());
        } finally {
            gate.writeLock().unlock();
        }
    }

    /** Closes every segment still open (which forces what simulated forces made durable), then the delegate. */
    @Override
    public void close() {
        control.unbind(this);
        RuntimeException first = null;
        for (FaultySegment segment : List.copyOf(open)) {
            try {
                segment.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        try {
            inner.close();
        } catch (RuntimeException e) {
            if (first == null) {
                first = e;
            } else {
                first.addSuppressed(e);
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
