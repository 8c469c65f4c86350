package org.modmq.ha.push.sync;

import java.util.List;
import org.modmq.api.spi.replication.EpochEntry;

/**
 * A replica's check of the epoch each DATA frame claims, against its own history and the master's
 * epoch from the WELCOME:
 * <ul>
 *   <li>never bytes of an epoch older than the replica's last (fencing) nor newer than the master's;</li>
 *   <li>the same epoch as the last must name the same start;</li>
 *   <li>a newer epoch is recorded before its first byte is appended; once the replica holds an epoch, a
 *       newer one must start exactly at the frame (frames never cross an epoch boundary); a replica
 *       without epochs may enter one midway (it resumed a classic log).</li>
 * </ul>
 * Not thread-safe: one session's event loop.
 */
public final class EpochGate {

    private final int masterEpoch;
    private int lastEpoch;
    private long lastStart;

    /** A gate for a replica with {@code history} (oldest first) following a master of {@code masterEpoch}. */
    public EpochGate(List<EpochEntry> history, int masterEpoch) {
        this.masterEpoch = masterEpoch;
        EpochEntry last = history.isEmpty() ? null : history.get(history.size() - 1);
        this.lastEpoch = last == null ? 0 : last.epoch();
        this.lastStart = last == null ? 0 : last.startOffset();
    }

    /**
     * The entry to record before appending a frame at {@code offset} of {@code epoch} starting at
     * {@code epochStart}, or null when the frame continues the last epoch.
     *
     * @throws EpochViolation when the frame breaks a rule above (nothing may be appended)
     */
    public EpochEntry admit(int epoch, long epochStart, long offset) {
        if (epoch > masterEpoch) {
            throw new EpochViolation("bytes at " + offset + " of epoch " + epoch + ", beyond the master's epoch "
                    + masterEpoch);
        }
        if (epoch < lastEpoch) {
            throw new EpochViolation("bytes at " + offset + " of epoch " + epoch + ", older than this replica's epoch "
                    + lastEpoch);
        }
        if (epoch == lastEpoch) {
            if (epoch > 0 && epochStart != lastStart) {
                throw new EpochViolation("epoch " + epoch + " said to start at " + epochStart + ", this replica has it at "
                        + lastStart);
            }
            return null;
        }
        if (epochStart > offset || lastEpoch > 0 && epochStart != offset) {
            throw new EpochViolation("epoch " + epoch + " starting at " + epochStart + " cannot begin with bytes at "
                    + offset + " after epoch " + lastEpoch + " from " + lastStart);
        }
        return new EpochEntry(epoch, epochStart);
    }

    /** {@code entry} (from {@link #admit}) is recorded. */
    public void started(EpochEntry entry) {
        lastEpoch = entry.epoch();
        lastStart = entry.startOffset();
    }

    /** The master's epoch this gate admits up to. */
    public int masterEpoch() {
        return masterEpoch;
    }

    /** A frame the replica must not apply. */
    public static final class EpochViolation extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public EpochViolation(String message) {
            super(message);
        }
    }
}
