package org.modmq.controller.elect;

import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.modmq.controller.liveness.LiveBroker;
import org.modmq.controller.state.BrokerSetState;

/**
 * Picks a master among a broker set's live replicas, as RocketMQ's {@code DefaultElectPolicy} does:
 * first among the sync-state set, then (only when unclean elections are enabled) among every replica.
 * Within a group: the old master if it is still alive and no other broker is designated; else the
 * designated broker if alive (or nobody); else the best by epoch (descending), max offset (descending)
 * and election priority (ascending), the smaller id breaking ties. Stateless and thread-safe.
 */
public final class ElectPolicy {

    private static final Comparator<Candidate> BEST_FIRST = Comparator
            .comparingInt((Candidate c) -> c.live().epoch()).reversed()
            .thenComparing(Comparator.comparingLong((Candidate c) -> c.live().maxOffset()).reversed())
            .thenComparingInt(c -> c.live().electionPriority())
            .thenComparingLong(Candidate::brokerId);

    private record Candidate(long brokerId, LiveBroker live) {
    }

    /**
     * @param set          the broker set
     * @param alive        whether a replica id is alive for this controller
     * @param liveInfo     what was heard from a live replica
     * @param designated   the broker an operator asked for, or null
     * @param allowUnclean whether replicas outside the sync-state set may be chosen
     * @return the chosen master's id, empty when nobody can be chosen
     */
    public Optional<Long> elect(BrokerSetState set, Predicate<Long> alive, Function<Long, Optional<LiveBroker>> liveInfo,
                                Long designated, boolean allowUnclean) {
        Objects.requireNonNull(set, "set");
        Optional<Long> inSync = electAmong(set.syncStateSet(), set.masterBrokerId(), alive, liveInfo, designated);
        if (inSync.isPresent() || !allowUnclean) {
            return inSync;
        }
        return electAmong(set.replicas().keySet(), set.masterBrokerId(), alive, liveInfo, designated);
    }

    private static Optional<Long> electAmong(Set<Long> brokers, Long oldMaster, Predicate<Long> alive,
                                             Function<Long, Optional<LiveBroker>> liveInfo, Long designated) {
        Set<Long> live = brokers.stream().filter(alive).collect(Collectors.toSet());
        if (live.isEmpty()) {
            return Optional.empty();
        }
        if (oldMaster != null && live.contains(oldMaster) && (designated == null || designated.equals(oldMaster))) {
            return Optional.of(oldMaster);
        }
        if (designated != null) {
            return live.contains(designated) ? Optional.of(designated) : Optional.empty();
        }
        return live.stream()
                .map(id -> liveInfo.apply(id).map(info -> new Candidate(id, info)))
                .flatMap(Optional::stream)
                .min(BEST_FIRST)
                .map(Candidate::brokerId)
                .or(() -> live.stream().min(Long::compare));
    }
}
