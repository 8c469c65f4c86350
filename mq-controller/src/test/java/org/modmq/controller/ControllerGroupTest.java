package org.modmq.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.process.Await;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three Ratis controller peers in this JVM on loopback ports, driven with RocketMQ's controller protocol
 * by test brokers: registration and the first election, a master whose connection closes replaced
 * within tens of milliseconds, followers pointing at the leader, a new controller leader carrying on
 * with the state intact, a survivor without quorum refusing, and recovery from a snapshot.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ControllerGroupTest {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerGroupTest.class);
    private static final String CLUSTER = "TestCluster";
    private static final String BROKER_NAME = "broker-a";

    @TempDir
    Path root;

    @Test
    void electsReplacesAMasterWhoseConnectionClosesAndSurvivesALeaderChange() {
        try (ControllerGroup group = new ControllerGroup(root, 3)) {
            ControllerServer leader = group.awaitLeader();
            String leaderAddress = leader.address();
            TestBroker first = new TestBroker(CLUSTER, BROKER_NAME, 1, group.addressList());
            TestBroker second = new TestBroker(CLUSTER, BROKER_NAME, 2, group.addressList());
            try (second) {
                first.join(leaderAddress);
                assertThat(second.nextBrokerId(leaderAddress).extField("nextBrokerId")).isEqualTo("2");
                second.join(leaderAddress);
                first.startHeartbeats();
                second.startHeartbeats();

                RemotingCommand elected = TestBroker.expectSuccess(first.elect(leaderAddress));
                assertThat(elected.extField("masterBrokerId")).isEqualTo("1");
                assertThat(elected.extField("masterEpoch")).isEqualTo("1");
                RemotingCommand still = second.elect(leaderAddress);
                assertThat(still.code()).isEqualTo(ResponseCode.CONTROLLER_MASTER_STILL_EXIST);
                assertThat(still.extField("masterAddress")).isEqualTo(first.address());
                RemotingCommand altered = TestBroker.expectSuccess(first.alterSyncStateSet(leaderAddress, 1,
                        "{\"syncStateSet\":[1,2],\"syncStateSetEpoch\":1}"));
                assertThat(altered.extField("newSyncStateSetEpoch")).isEqualTo("2");
                assertThat(first.alterSyncStateSet(leaderAddress, 0, "{\"syncStateSet\":[1],\"syncStateSetEpoch\":2}").code())
                        .isEqualTo(ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH);

                ControllerServer follower = Stream.of(0, 1, 2).map(group::peer).filter(p -> p != leader).findFirst().orElseThrow();
                RemotingCommand refused = second.replicaInfo(follower.address());
                assertThat(refused.code()).isEqualTo(ResponseCode.CONTROLLER_NOT_LEADER);
                assertThat(refused.extField("controllerLeaderAddress")).isEqualTo(leaderAddress);
                assertThat(refused.remark()).contains(leaderAddress);

                group.awaitLeaseWindow(leader);
                Await.until("broker 2 told of the first master", ControllerGroup.WAIT, () -> !second.notifications.isEmpty());
                assertThat(second.notifications.get(0).header()).containsEntry("masterBrokerId", "1");
                second.notifications.clear();
                long closed = System.nanoTime();
                first.close();
                Await.until("broker 2 notified of its election", ControllerGroup.WAIT, () -> !second.notifications.isEmpty());
                TestBroker.Notification notification = second.notifications.get(0);
                long notifiedMillis = TimeUnit.NANOSECONDS.toMillis(notification.nanoTime() - closed);
                LOG.warn("master connection closed -> new master elected and notified in {} ms", notifiedMillis);
                assertThat(notification.header()).containsEntry("masterBrokerId", "2")
                        .containsEntry("masterEpoch", "2").containsEntry("syncStateSetEpoch", "3");
                assertThat(notification.body()).isEqualTo("{\"syncStateSet\":[2],\"syncStateSetEpoch\":3}");
                // Tens of ms on an idle machine; the bound leaves room for a loaded one (and for a Raft
                // leader change in between, after which the new leader's lease window applies).
                assertThat(notifiedMillis).as("close seen -> election committed -> 1008 sent").isLessThan(2500);

                int leaderIndex = group.indexOf(leader);
                group.stop(leaderIndex);
                ControllerServer next = group.awaitLeader();
                assertThat(next).isNotSameAs(leader);
                RemotingCommand info = Await.value("replica info from the new leader", ControllerGroup.WAIT, () -> {
                    RemotingCommand answer = second.replicaInfo(next.address());
                    return answer.code() == ResponseCode.SUCCESS ? answer : null;
                });
                assertThat(info.extField("masterBrokerId")).isEqualTo("2");
                assertThat(info.extField("masterEpoch")).isEqualTo("2");
                assertThat(new String(info.body())).isEqualTo("{\"syncStateSet\":[2],\"syncStateSetEpoch\":3}");
                RemotingCommand beat = second.heartbeat(next.address(), 2, 100);
                assertThat(beat.extField("isLeader")).isEqualTo("true");
                assertThat(beat.extField("masterBrokerId")).isEqualTo("2");
                assertThat(beat.extField("masterEpoch")).isEqualTo("2");

                group.start(leaderIndex);
                Await.until("the restarted peer caught up", ControllerGroup.WAIT, () ->
                        group.peer(leaderIndex).eventLog().state().equals(next.eventLog().state()));
            }
        }
    }

    @Test
    void survivorWithoutQuorumRefusesAndARestartedPeerRecoversFromItsSnapshot() throws Exception {
        try (ControllerGroup group = new ControllerGroup(root, 3)) {
            ControllerServer leader = group.awaitLeader();
            try (TestBroker broker = new TestBroker(CLUSTER, BROKER_NAME, 1, group.addressList())) {
                broker.join(leader.address());
                TestBroker.expectSuccess(broker.elect(leader.address()));
                var state = leader.eventLog().state();
                for (int i = 0; i < 3; i++) {
                    Await.until("n" + i + " applied the election", ControllerGroup.WAIT,
                            () -> group.peer(0) != null && state.equals(groupPeerState(group, 0)) && state.equals(groupPeerState(group, 1))
                                    && state.equals(groupPeerState(group, 2)));
                }
                int survivor = group.indexOf(leader);
                List<Integer> others = new ArrayList<>(List.of(0, 1, 2));
                others.remove(Integer.valueOf(survivor));
                long snapshotIndex = group.peer(others.get(0)).snapshotNow();
                assertThat(snapshotIndex).isPositive();
                group.stop(others.get(0));
                group.stop(others.get(1));

                // A peer that has not noticed the others are gone may still name the last leader it heard of.
                RemotingCommand refused = Await.value("survivor refuses for want of a quorum", ControllerGroup.WAIT, () -> {
                    RemotingCommand answer = broker.elect(leader.address());
                    return answer.code() == ResponseCode.CONTROLLER_NOT_LEADER
                            && (answer.remark().contains("quorum lost") || answer.remark().contains("no controller leader"))
                            ? answer : null;
                });
                assertThat(refused.extField("controllerLeaderAddress")).isNull();
                RemotingCommand metadata = broker.invoke(leader.address(),
                        RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO));
                assertThat(metadata.code()).isEqualTo(ResponseCode.SUCCESS);

                Path snapshotPeerStore = group.peer(survivor).config().storePath().resolveSibling("n" + others.get(0));
                try (Stream<Path> files = Files.walk(snapshotPeerStore)) {
                    assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("snapshot."));
                }
                ControllerServer restarted = group.start(others.get(0));
                // Ratis also takes one when a peer stops, so the newest may be later than ours.
                assertThat(restarted.loadedSnapshotIndex()).as("started from a snapshot").isGreaterThanOrEqualTo(snapshotIndex);
                assertThat(restarted.eventLog().state()).isEqualTo(state);
                group.start(others.get(1));
                ControllerServer back = group.awaitLeader();
                Await.until("replica info after quorum is back", ControllerGroup.WAIT,
                        () -> broker.replicaInfo(back.address()).code() == ResponseCode.SUCCESS);
            }
        }
    }

    private static org.modmq.controller.state.ControllerState groupPeerState(ControllerGroup group, int i) {
        ControllerServer peer = group.peer(i);
        return peer == null ? null : peer.eventLog().state();
    }
}
