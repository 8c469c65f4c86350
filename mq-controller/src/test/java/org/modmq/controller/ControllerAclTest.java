package org.modmq.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.acl.AclFileWatchAgent;
import org.modmq.acl.RequestSigner;
import org.modmq.api.config.ConfigException;
import org.modmq.controller.liveness.BrokerKey;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.FreePort;

/**
 * One controller with {@code aclEnable=true}: what an unsigned, a badly signed, a broker's and an operator's
 * request get, and a rule change taking effect on the next reload step.
 */
@Tag("integration")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ControllerAclTest {

    private static final String RULES = """
            accounts:
              - accessKey: brokerUser
                secretKey: brokerSecret1
                admin: false
              - accessKey: opsAdmin
                secretKey: adminSecret1
                admin: true
            """;
    private static final String PREFIX = "org.apache.rocketmq.acl.common.AclException: ";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    static Path root;

    /** One controller for the class: starting a Raft peer is the slow part. Tests leave the rules as found. */
    private static Path rules;
    private static ControllerServer controller;
    private static RemotingClient client;

    private static Map<String, String> settings() {
        int[] ports = FreePort.pick(2);
        Map<String, String> values = new LinkedHashMap<>();
        values.put("controllerDLegerPeers", "n0-127.0.0.1:" + ports[0]);
        values.put("controllerRaftPeers", "n0-127.0.0.1:" + ports[1]);
        values.put("controllerStorePath", root.resolve("n0").toString());
        values.put("raftElectionTimeoutMin", "150");
        values.put("raftElectionTimeoutMax", "300");
        values.put("aclEnable", "true");
        values.put("aclFile", root.resolve("plain_acl.yml").toString());
        return values;
    }

    @BeforeAll
    static void start() throws Exception {
        rules = Files.writeString(root.resolve("plain_acl.yml"), RULES);
        controller = new ControllerServer(ControllerConfig.parse(settings(), warning -> { })).start();
        Await.until("the controller leads", Duration.ofSeconds(20), controller::isServingLeader);
        client = new RemotingClient(RemotingClientConfig.defaults());
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (controller != null) {
            controller.close();
        }
    }

    private static RemotingCommand invoke(RemotingCommand request, String accessKey, String secretKey) throws Exception {
        if (accessKey != null) {
            new RequestSigner(accessKey, secretKey).beforeSend(controller.address(), request);
        }
        return client.invoke(controller.address(), request, TIMEOUT).get(10, TimeUnit.SECONDS);
    }

    private static RemotingCommand designatedElection(long brokerId) {
        return RemotingCommand.request(RequestCode.CONTROLLER_ELECT_MASTER, Map.of("clusterName", "AclCluster",
                "brokerName", "broker-acl", "brokerId", Long.toString(brokerId), "designateElect", "true"));
    }

    private static void assertRefused(RemotingCommand response, String reason) {
        assertThat(response.code()).as(response.remark()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(response.remark()).isEqualTo(PREFIX + reason);
    }

    @Test
    void refusesUnsignedAndBadlySignedRequestsAsRocketMqDoes() throws Exception {
        assertRefused(invoke(RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO), null, null),
                "No accessKey is configured");
        assertRefused(invoke(RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO), "brokerUser", "wrong-secret"),
                "Check signature failed for accessKey=brokerUser");
        assertRefused(invoke(RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO), "nobody01", "whatever1"),
                "No acl config for nobody01");
        RemotingCommand heartbeat = RemotingCommand.request(RequestCode.BROKER_HEARTBEAT, Map.of("clusterName", "AclCluster",
                "brokerName", "broker-unsigned", "brokerAddr", "127.0.0.1:1", "brokerId", "1"));
        assertRefused(invoke(heartbeat, null, null), "No accessKey is configured");
        assertThat(controller.liveness().get(new BrokerKey("AclCluster", "broker-unsigned", 1)))
                .as("a refused heartbeat changes nothing").isEmpty();
        assertThat(invoke(RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO), "brokerUser", "brokerSecret1")
                .code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void aBrokerWithAValidAccountRegistersHeartbeatsAndElectsItselfButOnlyAnAdminDesignatesAMaster() throws Exception {
        try (TestBroker broker = new TestBroker("AclCluster", "broker-acl", 1, List.of(controller.address()))
                .withOutgoingHook(new RequestSigner("brokerUser", "brokerSecret1"))) {
            signedBrokerCallsPassAndOperatorChangesNeedAnAdmin(broker);
        }
    }

    private static void signedBrokerCallsPassAndOperatorChangesNeedAnAdmin(TestBroker broker) throws Exception {
        broker.join(controller.address());
        broker.startHeartbeats();
        assertThat(broker.heartbeat(controller.address(), 0, 0).code()).isEqualTo(ResponseCode.SUCCESS);
        TestBroker.expectSuccess(broker.elect(controller.address()));

        assertRefused(invoke(designatedElection(1), "brokerUser", "brokerSecret1"),
                "Need admin permission for request code=1002, but accessKey=brokerUser is not");
        RemotingCommand update = RemotingCommand.request(RequestCode.UPDATE_CONTROLLER_CONFIG)
                .withBody("enableElectUncleanMaster=true".getBytes(StandardCharsets.UTF_8));
        assertRefused(invoke(update, "brokerUser", "brokerSecret1"),
                "Need admin permission for request code=1009, but accessKey=brokerUser is not");
        RemotingCommand clean = RemotingCommand.request(RequestCode.CLEAN_BROKER_DATA, Map.of("clusterName", "AclCluster",
                "brokerName", "broker-acl", "brokerControllerIdsToClean", "1", "isCleanLivingBroker", "true"));
        assertRefused(invoke(clean, "brokerUser", "brokerSecret1"),
                "Need admin permission for request code=1011, but accessKey=brokerUser is not");
        RemotingCommand replicas = broker.replicaInfo(controller.address());
        assertThat(replicas.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(replicas.extFields()).as("refused requests changed nothing").containsEntry("masterBrokerId", "1")
                .containsEntry("masterEpoch", "1");

        RemotingCommand designated = invoke(designatedElection(1), "opsAdmin", "adminSecret1");
        assertThat(designated.remark()).as("an admin passes the ACL").doesNotStartWith(PREFIX);
        RemotingCommand updated = invoke(RemotingCommand.request(RequestCode.UPDATE_CONTROLLER_CONFIG)
                .withBody("enableElectUncleanMaster=true".getBytes(StandardCharsets.UTF_8)), "opsAdmin", "adminSecret1");
        assertThat(updated.code()).as(updated.remark()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void aChangedFileTakesEffectOnTheNextReloadStep() throws Exception {
        assertThat(invoke(RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO), "brokerUser", "brokerSecret1")
                .code()).isEqualTo(ResponseCode.SUCCESS);
        Files.writeString(rules, RULES.replace("brokerSecret1", "brokerSecret2"));
        AclFileWatchAgent agent = controller.acl().reloadAgent();
        try {
            // The controller's scheduler steps the agent too: whichever step runs first, the outcome is the same.
            agent.doWork();
            assertThat(agent.state()).isEqualTo(AclFileWatchAgent.State.CURRENT);
            assertRefused(invoke(RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO), "brokerUser",
                    "brokerSecret1"), "Check signature failed for accessKey=brokerUser");
            Files.writeString(rules, "accounts: [oops");
            agent.doWork();
            assertThat(agent.state()).isEqualTo(AclFileWatchAgent.State.REJECTED);
            assertThat(invoke(RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO), "brokerUser",
                    "brokerSecret2").code()).as("a broken file keeps the rules in force").isEqualTo(ResponseCode.SUCCESS);
        } finally {
            Files.writeString(rules, RULES);
            agent.doWork();
        }
    }

    @Test
    void aMissingFileStopsStartUpBeforeTheRaftLogOpens() {
        Map<String, String> values = settings();
        values.put("aclFile", root.resolve("absent.yml").toString());
        ControllerConfig config = ControllerConfig.parse(values, warning -> { });
        assertThatThrownBy(() -> new ControllerServer(config)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("absent.yml");
    }
}
