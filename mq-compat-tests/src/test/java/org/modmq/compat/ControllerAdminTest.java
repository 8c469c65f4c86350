package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;

/**
 * The stock {@code mqadmin} (rocketmq-tools 5.3.3) controller commands against {@code bin/mqcontroller}
 * and against {@code bin/mqnamesrv} with {@code enableControllerInNamesrv=true}: getControllerMetaData,
 * getSyncStateSet, getControllerConfig, updateControllerConfig, electMaster and cleanBrokerMetadata. The
 * broker set shown is made with raw protocol requests ({@link StockControllerRegistrar}).
 */
@Tag("integration")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ControllerAdminTest {

    private static final String CLUSTER = "CompatCluster";
    private static final String BROKER_NAME = "broker-c";
    private static final String FIRST = "127.0.0.1:30911";
    private static final String SECOND = "127.0.0.1:30921";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void mqadminReadsChangesAndElectsThroughAStandaloneController() throws Exception {
        Distribution distribution = Distribution.located();
        try (ChildProcess controller = distribution.startController(workDir, Map.of());
                StockControllerRegistrar registrar = new StockControllerRegistrar()) {
            String address = controller.address();
            awaitLeader(registrar, address);
            long first = registrar.join(address, CLUSTER, BROKER_NAME, FIRST);
            long second = registrar.join(address, CLUSTER, BROKER_NAME, SECOND);
            assertThat(List.of(first, second)).containsExactly(1L, 2L);
            StockControllerRegistrar.expectSuccess(registrar.elect(address, CLUSTER, BROKER_NAME, first));
            assertThat(registrar.elect(address, CLUSTER, BROKER_NAME, second).getCode()).isEqualTo(2011);
            StockControllerRegistrar.expectSuccess(registrar.alterSyncStateSet(address, BROKER_NAME, first, 1,
                    Set.of(first, second), 1));

            List<MqAdmin.Result> reads = MqAdmin.runAll(workDir, List.of(
                    args(address, "getControllerMetaData", "-a", address),
                    args(address, "getSyncStateSet", "-a", address, "-b", BROKER_NAME),
                    args(address, "getControllerConfig", "-a", address),
                    args(address, "updateControllerConfig", "-a", address, "-k", "controllerStorePath", "-v", "/tmp/x")));
            assertThat(reads.get(0).output()).contains("#ControllerGroup\tcompat-controller")
                    .contains("#ControllerLeaderId\tn0").contains("#ControllerLeaderAddress\t" + address)
                    .contains("#Peer:\tn0:" + address);
            assertThat(reads.get(1).output()).contains("#brokerName\t" + BROKER_NAME).contains("#MasterBrokerId\t1")
                    .contains("#MasterAddr\t" + FIRST).contains("#MasterEpoch\t1").contains("#SyncStateSetEpoch\t2")
                    .contains("#SyncStateSetNums\t2");
            assertThat(reads.get(2).output()).contains("============" + address + "============")
                    .containsPattern("notifyBrokerRoleChanged\\s+=\\s+true");
            assertThat(reads.get(3).output()).as("paths cannot change at run time").contains("CODE: 16")
                    .contains("controllerStorePath");

            List<MqAdmin.Result> changes = MqAdmin.runAll(workDir, List.of(
                    args(address, "updateControllerConfig", "-a", address, "-k", "enableElectUncleanMaster", "-v", "true"),
                    args(address, "electMaster", "-a", address, "-c", CLUSTER, "-bn", BROKER_NAME, "-b", "2")));
            assertThat(changes.get(0).output()).contains("update controller config success");
            assertThat(changes.get(1).output()).contains("#BrokerMasterAddr\t" + SECOND).contains("#MasterEpoch\t2")
                    .contains("#SyncStateSetEpoch\t3");

            List<MqAdmin.Result> after = MqAdmin.runAll(workDir, List.of(
                    args(address, "getControllerConfig", "-a", address),
                    args(address, "cleanBrokerMetadata", "-a", address, "-bn", BROKER_NAME, "-c", CLUSTER, "-b", "1"),
                    args(address, "cleanBrokerMetadata", "-a", address, "-bn", BROKER_NAME, "-b", "1", "-l")));
            assertThat(after.get(0).output()).containsPattern("enableElectUncleanMaster\\s+=\\s+true");
            assertThat(after.get(1).output()).as("broker 1 is alive").contains("CODE: 2009");
            assertThat(after.get(2).output()).contains("clear broker " + BROKER_NAME + " metadata from controller success");
            MqAdmin.Result cleaned = MqAdmin.run(workDir, args(address, "getSyncStateSet", "-a", address, "-b", BROKER_NAME));
            assertThat(cleaned.output()).contains("#MasterBrokerId\t2").doesNotContain(FIRST);
        }
    }

    @Test
    void mqadminFindsTheControllerEmbeddedInTheNameServer() throws Exception {
        Distribution distribution = Distribution.located();
        try (ChildProcess namesrv = distribution.startNamesrvWithController(workDir);
                StockControllerRegistrar registrar = new StockControllerRegistrar();
                StockRegistrar namesrvRegistrar = new StockRegistrar()) {
            String controller = Distribution.controllerAddressOf(namesrv);
            awaitLeader(registrar, controller);
            long id = registrar.join(controller, CLUSTER, BROKER_NAME, FIRST);
            StockControllerRegistrar.expectSuccess(registrar.elect(controller, CLUSTER, BROKER_NAME, id));
            StockRegistrar.FakeBroker broker = new StockRegistrar.FakeBroker(CLUSTER, BROKER_NAME, 0, FIRST,
                    "127.0.0.1:30912");
            org.apache.rocketmq.remoting.protocol.RemotingCommand registered = namesrvRegistrar.register(namesrv.address(),
                    broker, List.of(StockRegistrar.topic("TopicC", 4, 4, 6), StockRegistrar.topic("TBW102", 8, 8, 7)), 1);
            assertThat(registered.getCode()).as(registered.getRemark()).isZero();

            List<MqAdmin.Result> runs = MqAdmin.runAll(workDir, List.of(
                    args(namesrv.address(), "getControllerMetaData", "-a", controller),
                    args(namesrv.address(), "getSyncStateSet", "-a", controller, "-c", CLUSTER)));
            assertThat(runs.get(0).output()).contains("#ControllerLeaderAddress\t" + controller);
            assertThat(runs.get(1).output()).contains("#brokerName\t" + BROKER_NAME).contains("#MasterBrokerId\t1")
                    .contains("#MasterAddr\t" + FIRST);
        }
    }

    /** {@code mqadmin} arguments with {@code -n}: without one the stock client would look a name server up over HTTP. */
    private static String[] args(String namesrv, String... command) {
        String[] all = new String[command.length + 2];
        System.arraycopy(command, 0, all, 0, command.length);
        all[command.length] = "-n";
        all[command.length + 1] = namesrv;
        return all;
    }

    private static void awaitLeader(StockControllerRegistrar registrar, String address) {
        Await.until("controller " + address + " leads", Distribution.START_TIMEOUT, () -> {
            try {
                return registrar.invoke(address, org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(
                        1012, new org.apache.rocketmq.remoting.protocol.header.controller.register.GetNextBrokerIdRequestHeader(
                                CLUSTER, "probe"))).getCode() == 0;
            } catch (Exception e) {
                return false;
            }
        });
    }

}
