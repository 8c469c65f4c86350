package org.modmq.controller.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.modmq.controller.elect.ElectPolicy;
import org.modmq.controller.liveness.BrokerKey;
import org.modmq.controller.liveness.BrokerLiveness;
import org.modmq.controller.liveness.Heartbeat;
import org.modmq.controller.liveness.LeaseRule;
import org.modmq.controller.state.BrokerSetState;
import org.modmq.controller.state.ControllerEvent;
import org.modmq.testkit.ManualClock;

/**
 * The lease rule as the leader applies it, stepped on a manual clock: default heartbeat timeout 2 s,
 * election timeout max 300 ms, the master's own heartbeats naming 1 s.
 */
class InactiveMasterAgentTest {

    private static final String NAME = "broker-a";
    private static final long DEFAULT_TIMEOUT = 2000;
    private static final long ELECTION_MAX = 300;
    /** What {@link #beat} names. */
    private static final long MASTER_TIMEOUT = 1000;

    private final ManualClock clock = new ManualClock(1_000_000);
    private final MemoryEventLog log = new MemoryEventLog();
    private final BrokerLiveness liveness = new BrokerLiveness(clock::millis);
    private final List<RoleChange> changes = new ArrayList<>();
    private InactiveMasterAgent agent;
    private MasterElections elections;
    private final Object masterChannel = new Object();
    private final Object replicaChannel = new Object();

    @BeforeEach
    void setUp() {
        ControllerContext context = new ControllerContext(log, liveness, new LeaderGate("n0", Map.of("n0", "127.0.0.1:9878")),
                new WriteSequencer(), new RuntimeSettings(false, true, 100, 3));
        ElectPolicy policy = new ElectPolicy();
        LeaseRule leaseRule = new LeaseRule(DEFAULT_TIMEOUT, ELECTION_MAX);
        elections = new MasterElections(context, policy, leaseRule, changes::add);
        agent = new InactiveMasterAgent(context, elections, policy, leaseRule);
        log.submit(new ControllerEvent.ApplyBrokerId("c", NAME, 1, "127.0.0.1:10911", "a;1"));
        log.submit(new ControllerEvent.ApplyBrokerId("c", NAME, 2, "127.0.0.1:10921", "b;2"));
        log.submit(new ControllerEvent.ElectMaster(NAME, 1L, 0, 0));
        log.submit(new ControllerEvent.AlterSyncStateSet(NAME, 1, 1, 1, new TreeSet<>(Set.of(1L, 2L))));
    }

    private void leaderSince(long millis) {
        log.lead(new Leadership(true, true, true, "n0", millis));
    }

    private void beat(long brokerId, Object channel) {
        liveness.onHeartbeat(new Heartbeat(new BrokerKey("c", NAME, brokerId), "127.0.0.1:1", 1, 100, 100, MASTER_TIMEOUT, 0), channel);
    }

    private BrokerSetState set() {
        return log.state().brokerSet(NAME).orElseThrow();
    }

    @Test
    void electsAtOnceWhenTheMasterConnectionClosesUnderALongStandingLeader() {
        leaderSince(clock.millis() - 60_000);
        beat(1, masterChannel);
        beat(2, replicaChannel);
        assertThat(agent.doWork()).isZero();
        liveness.onChannelClosed(masterChannel);
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(set().masterBrokerId()).isEqualTo(2);
        assertThat(set().masterEpoch()).isEqualTo(2);
        assertThat(set().syncStateSet()).containsExactly(2L);
        assertThat(changes).singleElement().satisfies(c -> assertThat(c.masterBrokerId()).isEqualTo(2));
    }

    @Test
    void aFreshLeaderWaitsTheMastersOwnTimeoutPlusTheElectionTimeoutMaxEvenAfterAClose() {
        leaderSince(clock.millis());
        beat(1, masterChannel);
        beat(2, replicaChannel);
        liveness.onChannelClosed(masterChannel);
        clock.advance(Duration.ofMillis(MASTER_TIMEOUT + ELECTION_MAX - 1));
        beat(2, replicaChannel);
        assertThat(agent.doWork()).isZero();
        assertThat(set().masterBrokerId()).isEqualTo(1);
        clock.advance(Duration.ofMillis(1));
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(set().masterBrokerId()).isEqualTo(2);
    }

    @Test
    void aFreshLeaderThatNeverHeardTheMasterWaitsTheDefaultTimeoutPlusTheElectionTimeoutMax() {
        leaderSince(clock.millis());
        beat(2, replicaChannel);
        clock.advance(Duration.ofMillis(DEFAULT_TIMEOUT + ELECTION_MAX - 1));
        beat(2, replicaChannel);
        assertThat(agent.doWork()).isZero();
        clock.advance(Duration.ofMillis(1));
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(set().masterBrokerId()).isEqualTo(2);
    }

    @Test
    void aBrokerAskingForAnElectionInsideTheLeaseWindowIsRefusedButAnOperatorIsNot() {
        leaderSince(clock.millis());
        beat(1, masterChannel);
        beat(2, replicaChannel);
        liveness.onChannelClosed(masterChannel);
        ControllerReply refused = elections.electMaster(NAME, 2L, false).join();
        assertThat(refused.code()).isEqualTo(org.modmq.remoting.protocol.ResponseCode.CONTROLLER_ELECT_MASTER_FAILED);
        assertThat(refused.remark()).contains("lease");
        assertThat(set().masterBrokerId()).isEqualTo(1);
        ControllerReply designated = elections.electMaster(NAME, 2L, true).join();
        assertThat(designated.code()).isEqualTo(org.modmq.remoting.protocol.ResponseCode.SUCCESS);
        assertThat(set().masterBrokerId()).isEqualTo(2);
    }

    @Test
    void aSilentMasterIsReplacedOnlyAfterItsHeartbeatTimeout() {
        leaderSince(clock.millis() - 60_000);
        beat(1, masterChannel);
        beat(2, replicaChannel);
        clock.advance(Duration.ofMillis(1000));
        beat(2, replicaChannel);
        assertThat(agent.doWork()).as("exactly one timeout of silence: still active").isZero();
        clock.advance(Duration.ofMillis(1));
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(set().masterBrokerId()).isEqualTo(2);
    }

    @Test
    void aLeaderOfOwnTimeoutAgeStillWaitsForTheMastersSilenceToEnd() {
        leaderSince(clock.millis());
        clock.advance(Duration.ofMillis(DEFAULT_TIMEOUT + ELECTION_MAX + 5000));
        beat(1, masterChannel);
        beat(2, replicaChannel);
        clock.advance(Duration.ofMillis(500));
        beat(2, replicaChannel);
        assertThat(agent.doWork()).isZero();
        clock.advance(Duration.ofMillis(501));
        assertThat(agent.doWork()).isEqualTo(1);
    }

    @Test
    void withNoLiveCandidateTheMasterIsClearedAndReElectedWhenAReplicaReturns() {
        leaderSince(clock.millis() - 60_000);
        beat(1, masterChannel);
        liveness.onChannelClosed(masterChannel);
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(set().masterBrokerId()).isNull();
        assertThat(set().masterEpoch()).isEqualTo(2);
        assertThat(set().syncStateSet()).containsExactly(1L, 2L);
        int events = log.events.size();
        assertThat(agent.doWork()).isZero();
        assertThat(log.events).hasSize(events);
        beat(2, replicaChannel);
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(set().masterBrokerId()).isEqualTo(2);
        assertThat(set().masterEpoch()).isEqualTo(3);
    }

    @Test
    void doesNothingWithoutQuorumOrAsFollower() {
        beat(2, replicaChannel);
        log.lead(new Leadership(true, true, false, "n0", clock.millis() - 60_000));
        assertThat(agent.doWork()).isZero();
        assertThat(agent.state()).isEqualTo(InactiveMasterAgent.State.IDLE);
        log.lead(new Leadership(false, false, false, "n1", 0));
        assertThat(agent.doWork()).isZero();
        assertThat(set().masterBrokerId()).isEqualTo(1);
    }
}
