package org.modmq.controller.elect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.modmq.controller.liveness.LiveBroker;
import org.modmq.controller.state.BrokerSetState;
import org.modmq.controller.state.Replica;

class ElectPolicyTest {

    private final ElectPolicy policy = new ElectPolicy();

    private static BrokerSetState set(Long master, Set<Long> inSync, long... ids) {
        TreeMap<Long, Replica> replicas = new TreeMap<>();
        for (long id : ids) {
            replicas.put(id, new Replica(id, "127.0.0.1:" + (10_000 + id), "x"));
        }
        return new BrokerSetState("c", "b", ids.length + 1, replicas, master, 3, new TreeSet<>(inSync), 4);
    }

    private static LiveBroker live(int epoch, long maxOffset, int priority) {
        return new LiveBroker("a", 0, 1000, null, epoch, maxOffset, maxOffset, priority);
    }

    private Optional<Long> elect(BrokerSetState set, Map<Long, LiveBroker> alive, Long designated, boolean unclean) {
        return policy.elect(set, alive::containsKey, id -> Optional.ofNullable(alive.get(id)), designated, unclean);
    }

    @Test
    void keepsALiveOldMaster() {
        assertThat(elect(set(1L, Set.of(1L, 2L), 1, 2), Map.of(1L, live(1, 0, 0), 2L, live(9, 99, 0)), null, false))
                .contains(1L);
    }

    @Test
    void prefersEpochThenOffsetThenPriority() {
        BrokerSetState set = set(1L, Set.of(1L, 2L, 3L, 4L), 1, 2, 3, 4);
        assertThat(elect(set, Map.of(2L, live(3, 10, 0), 3L, live(4, 5, 0)), null, false)).contains(3L);
        assertThat(elect(set, Map.of(2L, live(3, 10, 0), 3L, live(3, 50, 0)), null, false)).contains(3L);
        assertThat(elect(set, Map.of(2L, live(3, 10, 5), 3L, live(3, 10, 1)), null, false)).contains(3L);
        assertThat(elect(set, Map.of(2L, live(3, 10, 1), 3L, live(3, 10, 1)), null, false)).contains(2L);
        assertThat(elect(set, Map.of(3L, live(3, Long.MAX_VALUE, 1), 4L, live(3, Long.MIN_VALUE + 1, 1)), null, false))
                .as("offsets far apart are compared, not subtracted").contains(3L);
    }

    @Test
    void onlyTheSyncStateSetUnlessUncleanIsAllowed() {
        BrokerSetState set = set(1L, Set.of(1L, 2L), 1, 2, 3);
        assertThat(elect(set, Map.of(3L, live(9, 9, 0)), null, false)).isEmpty();
        assertThat(elect(set, Map.of(3L, live(9, 9, 0)), null, true)).contains(3L);
    }

    @Test
    void honoursADesignatedLiveBrokerOrNobody() {
        BrokerSetState set = set(1L, Set.of(1L, 2L, 3L), 1, 2, 3);
        Map<Long, LiveBroker> alive = Map.of(1L, live(1, 1, 0), 2L, live(1, 1, 0));
        assertThat(elect(set, alive, 2L, false)).contains(2L);
        assertThat(elect(set, alive, 3L, false)).isEmpty();
        assertThat(elect(set, alive, 1L, false)).contains(1L);
    }
}
