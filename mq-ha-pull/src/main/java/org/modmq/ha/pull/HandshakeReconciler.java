package org.modmq.ha.pull;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica's answer to its master's AutoSwitch handshake (RocketMQ {@code AutoSwitchHAClient#doTruncate}
 * with {@code EpochFileCache#findConsistentPoint}): checks that the master is not stale, finds where the
 * two histories agree and cuts this log back to there through {@link ReplicatedLog#truncate}.
 *
 * <ul>
 *   <li>Fencing, beyond RocketMQ (whose replica only looks for a common epoch): a master whose history
 *       ends before an epoch in which this log holds bytes has been superseded, and is refused before
 *       anything is cut. The master's last epoch is not compared with the epoch the store was told to
 *       follow in: a RocketMQ master elected where its last epoch starts cannot record the new epoch (its
 *       epoch file takes only entries starting above the last one), so it answers, and labels its new
 *       bytes with, an older epoch than the controller's. Epochs this log recorded without bytes (modmq
 *       records every epoch it was master in) are cut like any other entry the master lacks.</li>
 *   <li>No local epochs: as RocketMQ, nothing is cut (a new replica reports 0 and takes the master's first
 *       or last file; a log kept from classic HA is trusted).</li>
 *   <li>A common epoch: the newest local epoch the master holds with the same start; the logs agree up to
 *       the smaller of its two ends. Whatever this log holds beyond that, bytes or epoch entries, is cut.</li>
 *   <li>No common epoch: RocketMQ refuses and retries for ever; modmq, having checked that the master is
 *       not stale, empties the log and syncs from the master's first (or last) file.</li>
 * </ul>
 *
 * <p>Threads: the session's event loop; {@link #reconcile} blocks while files are cut. Stateless.
 */
final class HandshakeReconciler {

    private static final Logger LOG = LoggerFactory.getLogger(HandshakeReconciler.class);

    private HandshakeReconciler() {
    }

    /**
     * Reconciles {@code log} with the master's handshake; returns the offset to report (this log's end
     * afterwards).
     *
     * @param roleEpoch the epoch the store follows in (0 when not known)
     * @throws RefusalException when the master is stale; nothing was cut
     * @throws IllegalStateException when the store became master meanwhile (the log refuses truncation)
     */
    static long reconcile(ReplicatedLog log, MasterFrame.Handshake master, int roleEpoch, String peer)
            throws RefusalException {
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(master, "master");
        List<EpochEntry> local = log.epochs();
        EpochTimeline mine = new EpochTimeline(local, log.maxOffset());
        EpochTimeline theirs = new EpochTimeline(master.entries(), master.maxOffset());
        if (theirs.isEmpty()) {
            throw new RefusalException("master " + peer + " is stale: it answers no epoch history");
        }
        int unknown = newestWithBytes(mine, log.maxOffset());
        if (unknown > master.lastEpoch()) {
            throw new RefusalException("master " + peer + " is stale: its last epoch " + master.lastEpoch()
                    + " is older than epoch " + unknown + ", in which this log holds bytes (this log " + local
                    + " ending at " + log.maxOffset() + ", following in epoch " + roleEpoch + ")");
        }
        if (master.lastEpoch() < roleEpoch) {
            LOG.info("master {} answers a history ending in epoch {} while it is master of epoch {} (a RocketMQ "
                    + "master elected where its last epoch starts keeps that epoch); following it", peer,
                    master.lastEpoch(), roleEpoch);
        }
        if (mine.isEmpty()) {
            if (log.maxOffset() > 0) {
                LOG.warn("this CommitLog [{}, {}) has no epoch history; continuing from its end without a check, "
                        + "as RocketMQ does", log.minOffset(), log.maxOffset());
            }
            return log.maxOffset();
        }
        Optional<EpochTimeline.ConsistentPoint> point = mine.consistentPointWith(theirs);
        if (point.isEmpty()) {
            LOG.error("no epoch in common with master {} (this log {} ending at {}, master {} ending at {}): "
                    + "dropping this whole log [{}, {}) and syncing from the master", peer, local, log.maxOffset(),
                    master.entries(), master.maxOffset(), log.minOffset(), log.maxOffset());
            log.truncate(log.minOffset());
            return log.maxOffset();
        }
        long at = point.get().offset();
        boolean laterEpochs = point.get().localIndex() < local.size() - 1;
        if (at < log.maxOffset() || laterEpochs) {
            LOG.warn("diverged from master {}: histories agree up to {} (epoch {}); cutting [{}, {}) and the epochs "
                    + "from there (this log {}, master {})", peer, at, local.get(point.get().localIndex()).epoch(),
                    at, log.maxOffset(), local, master.entries());
            log.truncate(at);
        }
        return log.maxOffset();
    }

    /** The newest epoch of {@code mine} that holds bytes (starts below its end), -1 when none does. */
    private static int newestWithBytes(EpochTimeline mine, long logEnd) {
        for (int i = mine.size() - 1; i >= 0; i--) {
            long start = mine.get(i).startOffset();
            long end = Math.min(mine.endOf(i), logEnd);
            if (start < end) {
                return mine.get(i).epoch();
            }
        }
        return -1;
    }
}
