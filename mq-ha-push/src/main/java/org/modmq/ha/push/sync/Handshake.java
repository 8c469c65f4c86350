package org.modmq.ha.push.sync;

import java.util.List;
import java.util.Objects;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.ha.push.wire.EpochEntries;
import org.modmq.ha.push.wire.Hello;
import org.modmq.ha.push.wire.Refusal;
import org.modmq.ha.push.wire.TailChecksum;
import org.modmq.ha.push.wire.Welcome;

/**
 * What a master answers a HELLO, and whether a replica accepts the answer. Both sides decide from the
 * same inputs (the epoch entries and ends carried by HELLO and WELCOME), so a replica recomputes the
 * master's consistent point and refuses to cut its log anywhere else.
 *
 * <ol>
 *   <li>Fencing: a master whose epoch (the one it serves in, or its history's last) is older than the
 *       replica's (the one it follows in, or its history's last) is stale: {@link Refusal#STALE_MASTER}.</li>
 *   <li>A replica with an epoch history is cut at the {@link ConsistentPoint}; no common epoch is
 *       {@link Refusal#DIVERGED}. A replica without one (classic HA, or never written) continues at its end
 *       when that end is within the master's log and its tail's CRC-32 matches the master's bytes.</li>
 *   <li>The first DATA byte is the consistent point, unless the replica's log is or becomes empty: an empty
 *       log at offset 0 takes any segment start, so the master streams from its own min offset. A point the
 *       master no longer holds is {@link Refusal#GAP}.</li>
 * </ol>
 *
 * <p>Stateless; thread-safe.
 */
public final class Handshake {

    private Handshake() {
    }

    /**
     * The master's answer: a WELCOME, or a refusal with a reason and a detail.
     *
     * @param welcome the answer when accepted, else null
     * @param refusal the reason when refused, else null
     * @param detail what the refusal is about (empty when accepted)
     */
    public record Answer(Welcome welcome, Refusal refusal, String detail) {

        static Answer accept(Welcome welcome) {
            return new Answer(Objects.requireNonNull(welcome, "welcome"), null, "");
        }

        static Answer refuse(Refusal refusal, String detail) {
            return new Answer(null, Objects.requireNonNull(refusal, "refusal"), detail);
        }

        public boolean accepted() {
            return welcome != null;
        }
    }

    /**
     * The master's answer to {@code hello}, serving in {@code servingEpoch} over {@code log}.
     *
     * @throws IndexOutOfBoundsException when the log's tail the CRC covers went away meanwhile (retention)
     */
    public static Answer answer(Hello hello, int servingEpoch, ReplicatedLog log) {
        List<EpochEntry> mine = EpochEntries.newest(log.epochs());
        long masterEnd = log.maxOffset();
        long masterMin = log.minOffset();
        int masterEpoch = Math.max(servingEpoch, ConsistentPoint.lastEpoch(mine));
        if (masterEpoch < hello.lastEpoch()) {
            return Answer.refuse(Refusal.STALE_MASTER, "this master's epoch " + masterEpoch
                    + " is older than the replica's epoch " + hello.lastEpoch());
        }
        long replicaEnd = hello.maxOffset();
        long point;
        if (!hello.epochs().isEmpty()) {
            point = ConsistentPoint.find(hello.epochs(), replicaEnd, mine, masterEnd);
            if (point == ConsistentPoint.NONE) {
                return Answer.refuse(Refusal.DIVERGED, "no epoch in common: replica " + hello.epochs()
                        + " ending at " + replicaEnd + ", master " + mine + " ending at " + masterEnd);
            }
        } else {
            if (replicaEnd > masterEnd) {
                return Answer.refuse(Refusal.DIVERGED, "replica log ends at " + replicaEnd
                        + ", beyond the master's end " + masterEnd + ": it holds bytes the master lacks");
            }
            int check = hello.checkLength();
            if (check > 0 && replicaEnd - check >= masterMin && TailChecksum.crc(log, replicaEnd, check) != hello.crc()) {
                return Answer.refuse(Refusal.DIVERGED, "the " + check + " bytes below offset " + replicaEnd
                        + " differ from the master's");
            }
            point = replicaEnd;
        }
        long start = start(point, hello.minOffset(), replicaEnd, masterMin);
        if (start < 0) {
            return Answer.refuse(Refusal.GAP, "replica needs offset " + point + " but the master's log starts at "
                    + masterMin);
        }
        return Answer.accept(new Welcome(masterEnd, masterEpoch, Math.min(log.confirmOffset(), masterEnd), point,
                start, mine));
    }

    /**
     * Where the master streams from once the replica cut its log ({@code [replicaMin, replicaEnd)}) at
     * {@code point}; -1 when the master's log ({@code masterMin} on) cannot continue it.
     */
    static long start(long point, long replicaMin, long replicaEnd, long masterMin) {
        boolean holdsBytes = replicaEnd > replicaMin;
        if (!holdsBytes && replicaEnd == 0 || holdsBytes && point <= replicaMin) {
            // the log is, or is cut to, nothing at offset 0: its first bytes may start at any segment start
            return masterMin;
        }
        return point >= masterMin ? point : -1;
    }

    /**
     * Replica: null when {@code welcome} answers {@code sent} consistently, else what is wrong with it (the
     * replica then closes the connection without touching its log).
     */
    public static String problem(Hello sent, Welcome welcome) {
        if (welcome.epoch() < sent.lastEpoch()) {
            return "master epoch " + welcome.epoch() + " is older than this replica's epoch " + sent.lastEpoch();
        }
        long point = sent.epochs().isEmpty() ? sent.maxOffset()
                : ConsistentPoint.find(sent.epochs(), sent.maxOffset(), welcome.epochs(), welcome.maxOffset());
        if (point == ConsistentPoint.NONE) {
            return "no epoch in common with the master's " + welcome.epochs();
        }
        if (welcome.truncateOffset() != point) {
            return "master asks to cut at " + welcome.truncateOffset() + " but the consistent point is " + point;
        }
        long startsAnywhere = start(point, sent.minOffset(), sent.maxOffset(), welcome.startOffset());
        if (welcome.startOffset() != point && startsAnywhere != welcome.startOffset()) {
            return "master starts at " + welcome.startOffset() + ", which does not continue this log at " + point;
        }
        return null;
    }
}
