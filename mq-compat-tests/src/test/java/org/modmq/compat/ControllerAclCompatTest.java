package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;

/**
 * A controller from the distribution ({@code bin/mqcontroller}) with {@code aclEnable=true}: a broker in
 * controller mode that signs its controller calls with {@code innerAccessKey}/{@code innerSecretKey} (an
 * account without {@code admin}) registers and is elected master, which the (open) name server then lists as
 * id 0; the stock {@code mqadmin} (5.3.3) reads the controller's metadata with an admin's {@code conf/tools.yml}
 * and is refused without credentials; the stock admin client is refused a designated election with the
 * broker's account. One broker only: on a loaded 2-core host a second one did not start within 30 s.
 */
@Tag("integration")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ControllerAclCompatTest {

    private static final String CLUSTER = "AclControllerCluster";
    private static final String BROKER_SET = "broker-ca";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String RULES = """
            accounts:
              - accessKey: brokerInner
                secretKey: brokerSecret1
                admin: false
              - accessKey: opsAdmin
                secretKey: adminSecret1
                admin: true
            """;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void signedBrokersElectAMasterAndMqadminNeedsCredentials() throws Exception {
        Path rules = Files.writeString(workDir.resolve("plain_acl.yml"), RULES);
        Distribution distribution = Distribution.located();
        ChildProcess controller = null;
        ChildProcess namesrv = null;
        List<ChildProcess> brokers = new ArrayList<>();
        StockAdmin admin = null;
        StockAdmin nonAdmin = null;
        try {
            // Two JVM start-ups at once: on a small machine they are most of this test's time.
            CompletableFuture<ChildProcess> startingNamesrv = CompletableFuture.supplyAsync(
                    () -> distribution.startNamesrv(workDir));
            try {
                controller = distribution.startController(workDir, Map.of("aclEnable", "true", "aclFile",
                        rules.toString()));
            } finally {
                namesrv = startingNamesrv.get(Distribution.START_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS);
            }
            String controllerAddr = controller.address();
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("brokerClusterName", CLUSTER);
            settings.put("enableControllerMode", "true");
            settings.put("controllerAddr", controllerAddr);
            settings.put("innerAccessKey", "brokerInner");
            settings.put("innerSecretKey", "brokerSecret1");
            settings.put("autoCreateTopicEnable", "false");
            Distribution.BrokerConf conf = distribution.brokerConf(workDir, "ca0", BROKER_SET, List.of(namesrv.address()),
                    settings);
            brokers.add(distribution.startBroker(workDir, conf));
            admin = StockAdmin.start(namesrv.address(), new AclClientRPCHook(new SessionCredentials("opsAdmin",
                    "adminSecret1")));
            StockAdmin signed = admin;
            Await.until("the master of " + BROKER_SET + " at the name server", WAIT, () -> {
                try {
                    BrokerData data = signed.ext().examineBrokerClusterInfo().getBrokerAddrTable().get(BROKER_SET);
                    return data != null && conf.address().equals(data.getBrokerAddrs().get(0L));
                } catch (Exception e) {
                    return false;
                }
            });
            BrokerReplicasInfo.ReplicasInfo replicas = admin.ext().getInSyncStateData(controllerAddr, List.of(BROKER_SET))
                    .getReplicasInfoTable().get(BROKER_SET);
            assertThat(replicas.getMasterEpoch()).isEqualTo(1);
            assertThat(replicas.getMasterAddress()).isEqualTo(conf.address());

            Path adminHome = toolsHome("admin-home", "opsAdmin", "adminSecret1");
            Path bareHome = Files.createDirectories(workDir.resolve("bare-home"));
            String ns = namesrv.address();
            // Two JVMs that mostly wait: run at once, each with its own home (conf/tools.yml or none).
            CompletableFuture<MqAdmin.Result> unsigned = CompletableFuture.supplyAsync(() -> MqAdmin.run(bareHome,
                    "getControllerMetaData", "-a", controllerAddr, "-n", ns));
            MqAdmin.Result metadata = MqAdmin.run(adminHome, "getControllerMetaData", "-a", controllerAddr, "-n", ns);
            assertThat(metadata.output()).contains("#ControllerLeaderAddress\t" + controllerAddr);
            assertThat(unsigned.get(90, TimeUnit.SECONDS).output())
                    .contains("org.apache.rocketmq.acl.common.AclException: No accessKey is configured");

            nonAdmin = StockAdmin.start(ns, new AclClientRPCHook(new SessionCredentials("brokerInner", "brokerSecret1")));
            StockAdmin brokerAccount = nonAdmin;
            Throwable refused = catchThrowable(() -> brokerAccount.ext().electMaster(controllerAddr, CLUSTER, BROKER_SET,
                    1L));
            assertThat(refused).hasStackTraceContaining(
                    "org.apache.rocketmq.acl.common.AclException: Need admin permission for request code=1002, "
                            + "but accessKey=brokerInner is not");
            assertThat(admin.ext().getInSyncStateData(controllerAddr, List.of(BROKER_SET)).getReplicasInfoTable()
                    .get(BROKER_SET).getMasterEpoch()).as("the refused election changed nothing").isEqualTo(1);
        } finally {
            for (StockAdmin started : new StockAdmin[] {admin, nonAdmin}) {
                if (started != null) {
                    started.close();
                }
            }
            for (ChildProcess broker : brokers) {
                broker.close();
            }
            List<ChildProcess> rest = new ArrayList<>();
            if (controller != null) {
                rest.add(controller);
            }
            if (namesrv != null) {
                rest.add(namesrv);
            }
            ChildProcess.stopAll(ChildProcess.STOP_TIMEOUT, rest.toArray(ChildProcess[]::new));
        }
    }

    /** A RocketMQ home for mqadmin whose {@code conf/tools.yml} holds the credentials. */
    private Path toolsHome(String name, String accessKey, String secretKey) throws Exception {
        Path home = Files.createDirectories(workDir.resolve(name).resolve("conf")).getParent();
        Files.writeString(home.resolve("conf/tools.yml"), "accessKey: " + accessKey + "\nsecretKey: " + secretKey + "\n");
        return home;
    }
}
