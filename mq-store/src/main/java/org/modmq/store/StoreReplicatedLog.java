package org.modmq.store;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Objects;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.store.replication.ReplicationTracker;

/**
 * The CommitLog as replication sees it: dispatch after each replicated append and each rise of the
 * confirm offset, whole-store truncation, the epoch history. The replica-only operations are refused
 * while the store is a master. Truncation, epoch entries and the confirm offset run under the role
 * transitions' lock, so none of them lands after the store became master (a replicated append is
 * refused by the CommitLog's mode instead). Thread-safe.
 */
final class StoreReplicatedLog implements ReplicatedLog {

    private final StoreParts parts;
    private final ReplicationTracker tracker;
    private final RoleTransitions roles;

    StoreReplicatedLog(StoreParts parts, ReplicationTracker tracker, RoleTransitions roles) {
        this.parts = Objects.requireNonNull(parts, "parts");
        this.tracker = Objects.requireNonNull(tracker, "tracker");
        this.roles = Objects.requireNonNull(roles, "roles");
    }

    @Override
    public long maxOffset() {
        return parts.log().maxOffset();
    }

    @Override
    public long minOffset() {
        return parts.log().minOffset();
    }

    @Override
    public ByteBuf read(long offset, int maxLength) {
        return parts.log().read(offset, maxLength);
    }

    @Override
    public void append(long offset, ByteBuf bytes) {
        parts.log().append(offset, bytes);
        if (parts.dispatch().dispatchedOffset() < parts.log().minOffset()) {
            // an empty log started at a later segment: nothing below it exists to dispatch
            parts.dispatch().resetTo(parts.log().minOffset());
        }
        parts.dispatch().doWork();
    }

    @Override
    public void truncate(long offset) {
        synchronized (roles) {
            requireReplica("truncate");
            parts.truncate(offset);
            tracker.truncated(parts.log().maxOffset());
        }
    }

    @Override
    public List<EpochEntry> epochs() {
        return parts.epochs().entries();
    }

    @Override
    public void startEpoch(EpochEntry entry) {
        Objects.requireNonNull(entry, "entry");
        synchronized (roles) {
            requireReplica("startEpoch");
            if (entry.startOffset() > parts.log().maxOffset()) {
                throw new IllegalArgumentException("epoch " + entry.epoch() + " starts at " + entry.startOffset()
                        + ", beyond this log's end " + parts.log().maxOffset());
            }
            parts.epochs().append(entry);
        }
    }

    @Override
    public long confirmOffset() {
        return tracker.confirmOffset();
    }

    @Override
    public void confirm(long offset) {
        synchronized (roles) {
            requireReplica("confirm");
            tracker.replicaConfirmed(offset);
        }
        parts.dispatch().doWork();
    }

    private void requireReplica(String what) {
        if (roles.master()) {
            throw new IllegalStateException(what + " is for a replica; this store is the master");
        }
    }
}
