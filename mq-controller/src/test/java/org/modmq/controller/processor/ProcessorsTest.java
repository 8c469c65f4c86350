package org.modmq.controller.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.modmq.controller.core.BrokerRegistrations;
import org.modmq.controller.core.ControllerContext;
import org.modmq.controller.core.LeaderGate;
import org.modmq.controller.core.Leadership;
import org.modmq.controller.core.MasterElections;
import org.modmq.controller.core.MemoryEventLog;
import org.modmq.controller.core.ReplicaQueries;
import org.modmq.controller.core.RuntimeSettings;
import org.modmq.controller.core.WriteSequencer;
import org.modmq.controller.elect.ElectPolicy;
import org.modmq.controller.liveness.BrokerLiveness;
import org.modmq.controller.state.ControllerState;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.ManualClock;

/** The processors on an in-memory log: bad input, follower answers, heartbeats, runtime settings. */
class ProcessorsTest {

    private final ManualClock clock = new ManualClock(1_000);
    private final MemoryEventLog log = new MemoryEventLog();
    private final BrokerLiveness liveness = new BrokerLiveness(clock::millis);
    private final LeaderGate gate = new LeaderGate("n0", Map.of("n0", "127.0.0.1:9878", "n1", "127.0.0.1:9868"));
    private final RuntimeSettings settings = new RuntimeSettings(false, true, 100, 3);
    private final ControllerContext context = new ControllerContext(log, liveness, gate, new WriteSequencer(), settings);
    private final ControllerRequestProcessor controller = new ControllerRequestProcessor(new BrokerRegistrations(context),
            new MasterElections(context, new ElectPolicy(), new org.modmq.controller.liveness.LeaseRule(10_000, 1000),
                    change -> { }), new ReplicaQueries(context));
    private final NodeRequestProcessor node = new NodeRequestProcessor(log, liveness, gate, settings, "g",
            () -> Map.of("controllerDLegerGroup", "g"), 10_000);
    private final RemotingChannel channel = new StubChannel();

    private RemotingCommand ask(RemotingCommand request) {
        return controller.process(channel, request).join();
    }

    @Test
    void malformedHeadersAreRefusedNamingTheFieldAndChangeNothing() {
        RemotingCommand missing = ask(RemotingCommand.request(RequestCode.CONTROLLER_APPLY_BROKER_ID,
                Map.of("clusterName", "c", "brokerName", "b", "registerCheckCode", "a;1")));
        assertThat(missing.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(missing.remark()).contains("appliedBrokerId");
        RemotingCommand malformed = ask(RemotingCommand.request(RequestCode.CONTROLLER_ELECT_MASTER,
                Map.of("brokerName", "b", "brokerId", "one")));
        assertThat(malformed.remark()).contains("brokerId");
        RemotingCommand badBody = ask(RemotingCommand.request(RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET,
                Map.of("brokerName", "b", "masterBrokerId", "1", "masterEpoch", "1")).withBody("{]".getBytes(StandardCharsets.UTF_8)));
        assertThat(badBody.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(badBody.remark()).contains("SyncStateSet");
        assertThat(log.state()).isEqualTo(ControllerState.EMPTY);
    }

    @Test
    void aFollowerNamesTheLeaderAndItsRemotingAddress() {
        log.lead(new Leadership(false, false, false, "n1", 0));
        RemotingCommand refused = ask(RemotingCommand.request(RequestCode.CONTROLLER_GET_REPLICA_INFO, Map.of("brokerName", "b")));
        assertThat(refused.code()).isEqualTo(ResponseCode.CONTROLLER_NOT_LEADER);
        assertThat(refused.extField("controllerLeaderId")).isEqualTo("n1");
        assertThat(refused.extField("controllerLeaderAddress")).isEqualTo("127.0.0.1:9868");
        log.lead(new Leadership(false, false, false, null, 0));
        assertThat(ask(RemotingCommand.request(RequestCode.CONTROLLER_GET_REPLICA_INFO, Map.of("brokerName", "b"))).remark())
                .contains("no controller leader");
        log.lead(new Leadership(true, true, false, "n0", 0));
        assertThat(ask(RemotingCommand.request(RequestCode.CONTROLLER_ELECT_MASTER, Map.of("brokerName", "b"))).remark())
                .contains("quorum lost");
    }

    @Test
    void registrationAndReadsOnTheLeader() {
        assertThat(ask(RemotingCommand.request(RequestCode.CONTROLLER_GET_NEXT_BROKER_ID,
                Map.of("clusterName", "c", "brokerName", "b"))).extField("nextBrokerId")).isEqualTo("1");
        assertThat(ask(RemotingCommand.request(RequestCode.CONTROLLER_APPLY_BROKER_ID, Map.of("clusterName", "c",
                "brokerName", "b", "appliedBrokerId", "1", "registerCheckCode", "127.0.0.1:10911;7"))).code())
                .isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand unknown = ask(RemotingCommand.request(RequestCode.CONTROLLER_GET_REPLICA_INFO, Map.of("brokerName", "x")));
        assertThat(unknown.code()).isEqualTo(ResponseCode.CONTROLLER_BROKER_METADATA_NOT_EXIST);
        RemotingCommand data = ask(RemotingCommand.request(RequestCode.CONTROLLER_GET_SYNC_STATE_DATA)
                .withBody("[\"b\",\"x\"]".getBytes(StandardCharsets.UTF_8)));
        assertThat(new String(data.body(), StandardCharsets.UTF_8)).isEqualTo("{\"replicasInfoTable\":{\"b\":{\"inSyncReplicas\":[],"
                + "\"masterEpoch\":0,\"notInSyncReplicas\":[{\"alive\":false,\"brokerAddress\":\"127.0.0.1:10911\","
                + "\"brokerId\":1,\"brokerName\":\"b\"}],\"syncStateSetEpoch\":0}}}");
        RemotingCommand elected = ask(RemotingCommand.request(RequestCode.CONTROLLER_ELECT_MASTER,
                Map.of("clusterName", "c", "brokerName", "b", "brokerId", "1")));
        assertThat(elected.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(new String(elected.body(), StandardCharsets.UTF_8)).isEqualTo("{\"brokerMemberGroup\":{\"brokerAddrs\":"
                + "{\"1\":\"127.0.0.1:10911\"},\"brokerName\":\"b\",\"cluster\":\"c\"},\"syncStateSet\":[1]}");
    }

    @Test
    void heartbeatsAnswerWhetherThisPeerLeadsAndTheMaster() {
        RemotingCommand beat = RemotingCommand.request(RequestCode.BROKER_HEARTBEAT, Map.of("clusterName", "c",
                "brokerName", "b", "brokerAddr", "127.0.0.1:10911", "brokerId", "1"));
        RemotingCommand leaderAnswer = node.process(channel, beat);
        assertThat(leaderAnswer.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(leaderAnswer.extField("isLeader")).isEqualTo("true");
        assertThat(liveness.isActive(new org.modmq.controller.liveness.BrokerKey("c", "b", 1))).isTrue();
        log.lead(new Leadership(false, false, false, "n1", 0));
        assertThat(node.process(channel, beat).extField("isLeader")).isEqualTo("false");
        assertThat(node.process(channel, RemotingCommand.request(RequestCode.BROKER_HEARTBEAT, Map.of("clusterName", "c",
                "brokerName", "b", "brokerAddr", "a")).markOneway()).code()).isEqualTo(ResponseCode.CONTROLLER_INVALID_REQUEST);
        assertThat(node.process(channel, RemotingCommand.request(RequestCode.BROKER_HEARTBEAT, Map.of("clusterName", "c",
                "brokerName", "b", "brokerAddr", "a", "brokerId", "2")).markOneway())).isNull();
        RemotingCommand metadata = node.process(channel, RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO));
        assertThat(metadata.extFields()).containsEntry("controllerLeaderAddress", "127.0.0.1:9868")
                .containsEntry("isLeader", "false").containsEntry("peers", "n0:127.0.0.1:9878;n1:127.0.0.1:9868;");
    }

    @Test
    void onlyRuntimeKeysCanBeUpdatedAndAllOrNothing() {
        RemotingCommand fixed = node.process(channel, RemotingCommand.request(RequestCode.UPDATE_CONTROLLER_CONFIG)
                .withBody("controllerStorePath=/tmp\nnotifyBrokerRoleChanged=false\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(fixed.code()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(fixed.remark()).contains("controllerStorePath");
        RemotingCommand bad = node.process(channel, RemotingCommand.request(RequestCode.UPDATE_CONTROLLER_CONFIG)
                .withBody("notifyBrokerRoleChanged=false\nscanNotActiveBrokerInterval=-1\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(bad.code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
        assertThat(settings.notifyBrokerRoleChanged()).isTrue();
        assertThat(node.process(channel, RemotingCommand.request(RequestCode.UPDATE_CONTROLLER_CONFIG)
                .withBody("notifyBrokerRoleChanged=false".getBytes(StandardCharsets.UTF_8))).code()).isEqualTo(ResponseCode.SUCCESS);
        String listed = new String(node.process(channel, RemotingCommand.request(RequestCode.GET_CONTROLLER_CONFIG)).body(),
                StandardCharsets.UTF_8);
        assertThat(listed).contains("notifyBrokerRoleChanged=false\n").contains("controllerDLegerGroup=g\n");
    }

    private static final class StubChannel implements RemotingChannel {
        @Override
        public String id() {
            return "stub";
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return new InetSocketAddress("127.0.0.1", 1);
        }

        @Override
        public InetSocketAddress localAddress() {
            return new InetSocketAddress("127.0.0.1", 2);
        }

        @Override
        public String remoteAddressText() {
            return "127.0.0.1:1";
        }

        @Override
        public boolean isActive() {
            return true;
        }

        @Override
        public CompletableFuture<Void> sendOneway(RemotingCommand request) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<RemotingCommand> invoke(RemotingCommand request, Duration timeout) {
            return CompletableFuture.failedFuture(new IllegalStateException("stub"));
        }

        @Override
        public void close() {
        }
    }
}
