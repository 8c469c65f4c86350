package org.modmq.ha.pull;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.api.spi.storage.StorageException;

/**
 * Applies an AutoSwitch master's transfer frames to a replica's log, labelling the bytes with the epochs
 * of the master's handshake history (the store drops a master's connections whenever it records an
 * epoch, so that history holds for the connection's life).
 *
 * <p>Before bytes at offset {@code o} are appended, the log's last epoch is brought to the master's epoch
 * that holds {@code o}: each master epoch above the log's last one that starts exactly at {@code o} is
 * recorded first ({@link ReplicatedLog#startEpoch}). A log without epochs (empty, or kept from classic HA)
 * records the epoch holding its first replicated byte, an empty one right after that first append (its
 * bytes may start at a later segment start than the epoch). After an append, and on a heartbeat, the
 * epochs starting at the new end are recorded at once.
 * Refused ({@link RefusalException}, nothing appended): bytes not at this log's end, bytes of an epoch older
 * than this log's last one (fencing), a master epoch that would start inside bytes this log already holds
 * under an older one, a header naming an epoch the handshake did not, a body crossing an epoch's end.
 * After each frame the master's confirm offset is passed on ({@link ReplicatedLog#confirm}).
 *
 * <p>A RocketMQ master labels a body that ends exactly where the next epoch starts with that next epoch;
 * such a label is accepted, the bytes still belong to the epoch that holds them.
 *
 * <p>Threads: the session's event loop. Not thread-safe.
 */
final class TransferApplier {

    private final ReplicatedLog log;
    private final EpochTimeline master;

    /** @param master the master's handshake history, unbounded at its end */
    TransferApplier(ReplicatedLog log, EpochTimeline master) {
        this.log = Objects.requireNonNull(log, "log");
        this.master = Objects.requireNonNull(master, "master");
    }

    /**
     * Records the master's epochs that start at this log's end (after the handshake).
     *
     * @throws RefusalException as for {@link #apply}
     */
    void alignAtEnd() throws RefusalException {
        long end = log.maxOffset();
        if (end > 0) {
            align(end);
        }
    }

    /**
     * Applies one frame; the caller keeps and releases its body. Returns whether the log grew.
     *
     * @throws RefusalException when the frame does not fit this log; nothing of it was appended
     * @throws IllegalStateException when the store became master meanwhile
     */
    boolean apply(MasterFrame.Transfer frame) throws RefusalException {
        long end = log.maxOffset();
        boolean empty = end == 0;
        int size = frame.size();
        if (!empty && frame.offset() != end) {
            throw new RefusalException("the master sends offset " + frame.offset() + " but this log ends at " + end);
        }
        int named = master.indexOf(frame.epoch());
        if (named < 0 || master.get(named).startOffset() != frame.epochStartOffset()) {
            throw new RefusalException("the master's header names epoch " + frame.epoch() + " starting at "
                    + frame.epochStartOffset() + ", which its handshake history " + master.entries() + " lacks");
        }
        if (size > 0) {
            appendBody(frame, named, empty);
        } else if (!empty) {
            align(end);
        }
        if (frame.confirmOffset() >= 0) {
            log.confirm(frame.confirmOffset());
        }
        return log.maxOffset() > end;
    }

    private void appendBody(MasterFrame.Transfer frame, int named, boolean empty) throws RefusalException {
        long offset = frame.offset();
        int holder = master.covering(offset);
        if (holder < 0) {
            throw new RefusalException("the master sends bytes at " + offset + ", below its first epoch "
                    + master.entries());
        }
        long bodyEnd = offset + frame.size();
        boolean boundaryLabel = named > holder && master.get(named).startOffset() == bodyEnd;
        if (named != holder && !boundaryLabel) {
            throw new RefusalException("the master labels bytes [" + offset + ", " + bodyEnd + ") with epoch "
                    + frame.epoch() + " but they belong to epoch " + master.get(holder).epoch());
        }
        if (bodyEnd > master.endOf(holder)) {
            throw new RefusalException("the master's bytes [" + offset + ", " + bodyEnd + ") cross the end of epoch "
                    + master.get(holder).epoch() + " at " + master.endOf(holder));
        }
        List<EpochEntry> entering = entering(offset, empty);
        if (!empty) {
            entering.forEach(log::startEpoch);
        }
        try {
            log.append(offset, frame.body());
        } catch (IllegalArgumentException | StorageException e) {
            throw new RefusalException("cannot append the master's bytes at " + offset + ": " + e.getMessage());
        }
        // An empty log has no start to put the entry at until its first bytes place it (maybe at a later
        // segment start than the epoch's own start).
        if (empty) {
            entering.forEach(log::startEpoch);
        }
        align(log.maxOffset());
    }

    /** Records the master's epochs that start at {@code at}, this log's end; see the class comment. */
    private void align(long at) throws RefusalException {
        entering(at, false).forEach(log::startEpoch);
    }

    /**
     * The master's epochs to record so that bytes at {@code at} carry the epoch holding them, oldest first;
     * empty when the log's last epoch already is that one.
     */
    private List<EpochEntry> entering(long at, boolean empty) throws RefusalException {
        int holder = master.covering(at);
        if (holder < 0) {
            return List.of();
        }
        EpochEntry target = master.get(holder);
        EpochEntry last = lastLocal();
        if (last != null && last.epoch() > target.epoch()) {
            throw new RefusalException("fenced: the master's bytes at " + at + " belong to epoch " + target.epoch()
                    + ", older than this log's last epoch " + last.epoch());
        }
        if (last != null && last.epoch() == target.epoch()) {
            if (last.startOffset() != target.startOffset()) {
                throw new RefusalException("epoch " + target.epoch() + " starts at " + last.startOffset()
                        + " here but at " + target.startOffset() + " on the master");
            }
            return List.of();
        }
        boolean untracked = empty || last == null;
        List<EpochEntry> entering = new ArrayList<>(2);
        for (int i = 0; i <= holder; i++) {
            EpochEntry entry = master.get(i);
            if (last != null && entry.epoch() <= last.epoch()) {
                continue;
            }
            if (entry.startOffset() == at || i == holder && untracked) {
                entering.add(entry);
            } else if (!untracked) {
                throw new RefusalException("the master's epoch " + entry.epoch() + " starts at "
                        + entry.startOffset() + ", inside bytes this log holds up to " + at + " under epoch "
                        + last.epoch());
            }
        }
        return entering;
    }

    private EpochEntry lastLocal() {
        var entries = log.epochs();
        return entries.isEmpty() ? null : entries.get(entries.size() - 1);
    }
}
