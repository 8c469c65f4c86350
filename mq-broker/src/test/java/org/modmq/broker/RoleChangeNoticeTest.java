package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.acl.RequestSigner;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.controller.ControllerServer;
import org.modmq.namesrv.NamesrvConfig;
import org.modmq.namesrv.NamesrvServer;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.process.Await;

/**
 * NOTIFY_BROKER_ROLE_CHANGED is a hint: a notice forged by anyone who reaches a broker's port (no signature,
 * a made-up master and epoch) leaves every role as the controller has it; a switch the controller makes
 * still reaches the brokers. One in-process controller, a name server and a broker set of two.
 */
@Tag("integration")
@Timeout(120)
class RoleChangeNoticeTest {

    private static final Duration WAIT = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    private NamesrvServer namesrv;
    private ControllerServer controller;
    private RemotingClient forger;
    private final List<HaNode> nodes = new ArrayList<>();

    private static final String RULES = """
            accounts:
              - accessKey: modmqInner
                secretKey: innerSecret1
                admin: true
              - accessKey: appUser1
                secretKey: appSecret1
                defaultTopicPerm: PUB|SUB
                defaultGroupPerm: SUB
            """;

    /** Broker keys of every broker; the ACL test adds its own. */
    private final List<String> brokerKeys = new ArrayList<>();

    @BeforeEach
    void start() {
        namesrv = new NamesrvServer(NamesrvConfig.defaults().withListenPort(0)).start();
        forger = new RemotingClient(RemotingClientConfig.defaults());
    }

    /** One controller peer; {@code extra} are further controller keys. */
    private void startController(String... extra) {
        controller = TestControllers.start(dir.resolve("controller"), "notice-group", WAIT, extra);
    }

    @AfterEach
    void stop() {
        forger.close();
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
        if (controller != null) {
            controller.close();
        }
        namesrv.close();
    }

    private HaNode broker(String name) {
        List<String> keys = new ArrayList<>(List.of("enableControllerMode", "true",
                "controllerAddr", controller.address(), "brokerClusterName", "NoticeCluster",
                "brokerHeartbeatInterval", "200", "controllerHeartBeatTimeoutMills", "1500",
                "syncBrokerMetadataPeriod", "60000", "checkSyncStateSetPeriod", "500"));
        keys.addAll(brokerKeys);
        HaNode node = HaNode.start(dir.resolve(name), HaNode.freePort(), HaNode.freePort(), namesrv.address(),
                keys.toArray(String[]::new));
        nodes.add(node);
        return node;
    }

    private static RoleState role(HaNode node) {
        return node.binding().store().role();
    }

    private void forge(HaNode target, String masterAddress, long masterId, int epoch) {
        forger.invokeOneway(target.address(), notice(masterAddress, masterId, epoch)).join();
    }

    private static RemotingCommand notice(String masterAddress, long masterId, int epoch) {
        return RemotingCommand.request(RequestCode.NOTIFY_BROKER_ROLE_CHANGED)
                .putExtField("masterAddress", masterAddress)
                .putExtField("masterEpoch", epoch)
                .putExtField("syncStateSetEpoch", epoch)
                .putExtField("masterBrokerId", masterId)
                .withBody(("{\"syncStateSet\":[" + masterId + "],\"syncStateSetEpoch\":" + epoch + "}")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void aForgedNoticeChangesNoRoleAndARealSwitchStillHappens() throws Exception {
        startController();
        HaNode a = broker("a");
        HaNode b = broker("b");
        HaNode master = Await.value("one master", WAIT, () -> role(a).master() ? a : role(b).master() ? b : null);
        HaNode replica = master == a ? b : a;
        Await.until("the replica to follow " + master.address(), WAIT,
                () -> !role(replica).master() && role(replica).masterHaAddress() != null);
        RoleState masterBefore = role(master);
        RoleState replicaBefore = role(replica);

        // The replica told it is master (whatever its id), the master told to follow a master that does not exist.
        for (long id = 0; id <= 3; id++) {
            forge(replica, replica.address(), id, masterBefore.epoch() + 10);
        }
        forge(master, "127.0.0.1:1", 7, masterBefore.epoch() + 10);
        forge(replica, "127.0.0.1:1", 7, masterBefore.epoch() + 11);

        // Each notice makes the broker ask the controller; give those answers time to arrive and be applied.
        Thread.sleep(2_000);
        assertThat(role(master).master()).as("the master stays master").isTrue();
        assertThat(role(master).epoch()).isEqualTo(masterBefore.epoch());
        assertThat(role(replica).master()).as("the replica stays replica").isFalse();
        assertThat(role(replica).epoch()).isEqualTo(replicaBefore.epoch());
        assertThat(role(replica).masterHaAddress()).isEqualTo(replicaBefore.masterHaAddress());

        // A real switch: the master goes away, the controller elects the replica and tells it.
        master.close();
        nodes.remove(master);
        Await.until("the replica to become master", WAIT, () -> role(replica).master());
        assertThat(role(replica).epoch()).isGreaterThan(masterBefore.epoch());
        assertThat(Optional.ofNullable(replica.binding().store().role().masterHaAddress())).isEmpty();
    }

    @Test
    void withAclANoticeNeedsAnAdminSignatureAndTheControllerSignsItsOwn() throws Exception {
        Path file = Files.writeString(dir.resolve("plain_acl.yml"), RULES);
        brokerKeys.addAll(List.of("aclEnable", "true", "aclFile", file.toString(), "innerAccessKey", "modmqInner",
                "innerSecretKey", "innerSecret1"));
        startController("aclEnable", "true", "aclFile", file.toString(), "innerAccessKey", "modmqInner",
                "innerSecretKey", "innerSecret1");
        HaNode a = broker("a");
        HaNode b = broker("b");
        HaNode master = Await.value("one master", WAIT, () -> role(a).master() ? a : role(b).master() ? b : null);
        HaNode replica = master == a ? b : a;
        Await.until("the replica to follow " + master.address(), WAIT,
                () -> !role(replica).master() && role(replica).masterHaAddress() != null);
        int epoch = role(master).epoch();

        // Sent as requests (not one-way) so that the broker's ACL answer can be read.
        RemotingCommand unsigned = forger.invoke(replica.address(), notice(replica.address(), 1, epoch + 10),
                WAIT).join();
        assertThat(unsigned.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(unsigned.remark()).contains("No accessKey is configured");
        try (RemotingClient app = new RemotingClient(RemotingClientConfig.defaults())) {
            app.setOutgoingRequestHook(new RequestSigner("appUser1", "appSecret1"));
            RemotingCommand notAdmin = app.invoke(replica.address(), notice(replica.address(), 1, epoch + 10),
                    WAIT).join();
            assertThat(notAdmin.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
            assertThat(notAdmin.remark()).contains("Need admin permission for request code=1008");
        }
        assertThat(role(replica).master()).isFalse();

        // Under ACL the switch still goes through (the controller signs its notice with its inner account;
        // were it refused, the next heartbeat answer would carry the change a little later).
        master.close();
        nodes.remove(master);
        Await.until("the replica to become master", WAIT, () -> role(replica).master());
        assertThat(role(replica).epoch()).isGreaterThan(epoch);
    }
}
