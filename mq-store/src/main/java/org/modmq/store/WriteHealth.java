package org.modmq.store;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.modmq.api.spi.flush.FlushTarget;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the store may take writes, as RocketMQ's running flags say "not writeable" after a storage
 * error (a failed CommitLog write, a failed force, a failed ConsumeQueue or index write) or on a full
 * disk. Each
 * {@link Area} fails and recovers on its own; the store is writable when none is failing. Listeners
 * hear every change of the whole (the broker tells the name servers).
 *
 * <p>Thread-safe (monitor); listeners run on the thread that made the change, outside the monitor.
 */
final class WriteHealth {

    private static final Logger LOG = LoggerFactory.getLogger(WriteHealth.class);

    /** Where a storage error happened; each recovers when its own operation succeeds again. */
    enum Area {
        /** A CommitLog append failed: recovers when the tail can be written again. */
        COMMIT_LOG_WRITE,
        /** A CommitLog force failed: recovers with the next successful force. */
        COMMIT_LOG_FORCE,
        /** A ConsumeQueue or index write or force failed: recovers when dispatch and their force succeed. */
        LOGICS,
        /** Disk usage above {@code diskSpaceWarningLevelRatio}: recovers when retention finds it below. */
        DISK_FULL
    }

    private final Map<Area, String> failing = new EnumMap<>(Area.class);
    private final List<Consumer<Boolean>> listeners = new CopyOnWriteArrayList<>();

    /** Records a failure of {@code area}; the first one makes the store unwritable. */
    void failed(Area area, String reason) {
        boolean changed;
        synchronized (this) {
            changed = failing.isEmpty();
            if (failing.put(area, reason) == null) {
                LOG.error("store not writable: {} failed: {}", area, reason);
            }
        }
        if (changed) {
            notifyListeners(false);
        }
    }

    /** Records that {@code area} works again; the last recovery makes the store writable. */
    void recovered(Area area) {
        boolean changed;
        synchronized (this) {
            if (failing.remove(area) == null) {
                return;
            }
            LOG.info("store: {} works again{}", area, failing.isEmpty() ? "; writable" : ", still failing: "
                    + failing.keySet());
            changed = failing.isEmpty();
        }
        if (changed) {
            notifyListeners(true);
        }
    }

    synchronized boolean writable() {
        return failing.isEmpty();
    }

    synchronized boolean failing(Area area) {
        return failing.containsKey(area);
    }

    /** Why writes are refused, empty when writable. */
    synchronized String reason() {
        StringBuilder out = new StringBuilder();
        failing.forEach((area, reason) -> out.append(out.length() == 0 ? "" : "; ").append(area).append(": ")
                .append(reason));
        return out.toString();
    }

    void addListener(Consumer<Boolean> listener) {
        listeners.add(listener);
    }

    /** {@code target} with its force outcomes reported as {@link Area#COMMIT_LOG_FORCE}. */
    FlushTarget watch(FlushTarget target) {
        return new FlushTarget() {
            @Override
            public long writtenOffset() {
                return target.writtenOffset();
            }

            @Override
            public long durableOffset() {
                return target.durableOffset();
            }

            @Override
            public boolean holdsWritesInProcess() {
                return target.holdsWritesInProcess();
            }

            @Override
            public long flush() {
                try {
                    long durable = target.flush();
                    recovered(Area.COMMIT_LOG_FORCE);
                    return durable;
                } catch (StorageException e) {
                    failed(Area.COMMIT_LOG_FORCE, e.getMessage());
                    throw e;
                }
            }
        };
    }

    private void notifyListeners(boolean writable) {
        for (Consumer<Boolean> listener : listeners) {
            try {
                listener.accept(writable);
            } catch (RuntimeException e) {
                LOG.warn("writability listener failed", e);
            }
        }
    }
}
