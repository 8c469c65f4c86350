package org.modmq.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Apache RocketMQ 5.3.3 broker in controller mode replicates from a modmq master over RocketMQ 5's
 * AutoSwitch HA protocol: three modmq controllers, a stock name server, a modmq broker in controller mode
 * ({@code haStrategy=pull}) started first, so the controllers elect it, and a stock broker of the same
 * set, both with {@code allAckInSyncStateSet=true}.
 *
 * <p>The stock broker learns the master's HA address from the name server, syncs from offset 0 and joins
 * the SyncStateSet; a burst crosses CommitLog files. Then the replica stops, the master restarts and is
 * elected again in a later epoch, a second burst goes to it alone, and the replica comes back holding the
 * first epoch's bytes: its handshake finds where the two histories agree and it catches up across the
 * epoch change. At the end the replica is in the SyncStateSet again, a stock pull sent to its address
 * reads the messages from its own ConsumeQueues, both report the same epochs (GET_BROKER_EPOCH_CACHE), and
 * once both stopped their CommitLogs are byte-identical and their {@code epochFileCheckpoint}s equal.
 */
@Tag("integration")
class StockReplicaFollowsModmqMasterInControllerModeTest {

    private static final Logger LOG = LoggerFactory.getLogger(StockReplicaFollowsModmqMasterInControllerModeTest.class);
    private static final String TOPIC = "InteropAutoSwitchA";
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Sent while the replica is down, after the master's new epoch: enough to reach another segment file. */
    private static final int SECOND_BURST = 800;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void stockReplicaFollowsAcrossFilesAndEpochs(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path work) {
        Phases phases = new Phases(LOG, "modmq master -> stock replica (controller mode)");
        List<ChildProcess> controllers = ModmqDistribution.startControllers(work);
        List<ChildProcess> running = new ArrayList<>();
        try (ChildProcess namesrv = StockRocketMq.startNamesrv(work);
                StockAdmin admin = new StockAdmin(namesrv.address())) {
            String controllerAddr = String.join(";", controllers.stream().map(ChildProcess::address).toList());
            ControllerView view = new ControllerView(admin, controllers.get(0).address());
            phases.done("stock name server and 3 modmq controllers started");

            ModmqDistribution.ModmqBroker master = ModmqDistribution.startControllerModeBroker(work, "modmq-a",
                    namesrv.address(), controllerAddr, Map.of());
            running.add(master.process());
            String masterAddr = master.process().address();
            BrokerReplicasInfo.ReplicasInfo first = view.awaitMaster(masterAddr, 0, WAIT);
            assertThat(first.getMasterBrokerId()).isEqualTo(1L);
            Scenario.createTopic(admin, masterAddr, TOPIC);
            Scenario.awaitRoute(admin, TOPIC);
            phases.done("modmq-a master (id 1) of epoch " + first.getMasterEpoch() + ", topic routed");

            StockRocketMq.StockBroker replica = StockRocketMq.startControllerModeBroker(work, "stock-b",
                    namesrv.address(), controllerAddr, replicaSettings());
            ChildProcess replicaRun = replica.process();
            running.add(replicaRun);
            String replicaAddr = replicaRun.address();
            // A stock replica's metadata sync asks its master for the topic configs on the master's VIP port
            // (listenPort - 2, hard-coded in RocketMQ's BrokerOuterAPI#getAllTopicConfig), where a modmq
            // broker does not listen: without this the replica never knows the topic and refuses pulls.
            Await.value(replicaAddr + " to take " + TOPIC, WAIT, () -> {
                admin.createTopic(replicaAddr, TOPIC, 4);
                return Boolean.TRUE;
            });
            phases.done("stock-b started, topic created on it");
            Scenario.Burst burst = Scenario.sendBurst(admin, namesrv.address(), TOPIC, masterAddr, replicaAddr, phases);
            BrokerReplicasInfo.ReplicasInfo widened = view.awaitInSync(2, WAIT);
            long replicaId = otherThan(widened, first.getMasterBrokerId());
            phases.done("stock-b (id " + replicaId + ") in the SyncStateSet " + widened.getSyncStateSetEpoch());

            assertThat(replicaRun.stop(ChildProcess.STOP_TIMEOUT)).as("stock-b stops on SIGTERM").isTrue();
            assertThat(master.process().stop(ChildProcess.STOP_TIMEOUT)).as("modmq-a stops on SIGTERM").isTrue();
            running.clear();
            ChildProcess masterRun = master.process().restart(ModmqDistribution.START_TIMEOUT);
            running.add(masterRun);
            BrokerReplicasInfo.ReplicasInfo second = view.awaitMaster(masterAddr, first.getMasterEpoch(), WAIT);
            assertThat(second.getMasterBrokerId()).isEqualTo(first.getMasterBrokerId());
            Await.until("modmq-a registered as id 0 again", WAIT,
                    () -> masterAddr.equals(admin.routeBrokers(TOPIC).get(0L)));
            phases.done("both stopped; modmq-a restarted and master of epoch " + second.getMasterEpoch());
            try (StockTraffic traffic = new StockTraffic(namesrv.address(), TOPIC, 2L)) {
                traffic.send(SECOND_BURST);
                burst = burst.then(new Scenario.Burst(traffic.sent(), admin.commitLogMaxOffset(masterAddr)));
            }
            phases.done(SECOND_BURST + " messages sent to modmq-a alone");

            replicaRun = replicaRun.restart(StockRocketMq.START_TIMEOUT);
            running.add(replicaRun);
            long masterMax = admin.commitLogMaxOffset(masterAddr);
            ChildProcess restarted = replicaRun;
            Await.until("stock-b to catch up to " + masterMax, WAIT,
                    () -> admin.commitLogMaxOffset(restarted.address()) == masterMax);
            BrokerReplicasInfo.ReplicasInfo rejoined = view.awaitInSync(2, WAIT);
            assertThat(rejoined.getMasterEpoch()).isEqualTo(second.getMasterEpoch());
            phases.done("stock-b restarted, caught up at " + masterMax + " and back in the SyncStateSet");

            assertThat(admin.epochs(replicaAddr)).as("stock-b's epochs (GET_BROKER_EPOCH_CACHE)")
                    .isEqualTo(admin.epochs(masterAddr)).hasSizeGreaterThanOrEqualTo(2);
            int pulled = SlaveReader.assertServesAt(namesrv.address(), replicaAddr, burst.sent());
            phases.done(pulled + " messages pulled from stock-b while modmq-a is master");

            // The replica first: a master stopping first would hand the set to it in another epoch.
            assertThat(replicaRun.stop(ChildProcess.STOP_TIMEOUT)).as("stock-b stops on SIGTERM").isTrue();
            assertThat(masterRun.stop(ChildProcess.STOP_TIMEOUT)).as("modmq-a stops on SIGTERM").isTrue();
            int files = CommitLogs.assertIdentical(master.commitLogDir(), replica.commitLogDir(), masterMax,
                    BrokerSettings.COMMIT_LOG_FILE_SIZE);
            List<String> epochs = EpochCheckpoints.entries(master.commitLogDir().getParent());
            assertThat(EpochCheckpoints.entries(replica.commitLogDir().getParent()))
                    .as("stock-b's epochFileCheckpoint entries").isEqualTo(epochs);
            assertThat(EpochCheckpoints.text(replica.commitLogDir().getParent()))
                    .as("stock-b's epochFileCheckpoint, count and CRC included")
                    .isEqualTo(EpochCheckpoints.text(master.commitLogDir().getParent()));
            phases.done(masterMax + " bytes in " + files + " CommitLog files identical, epochs " + epochs);
        } finally {
            running.forEach(ChildProcess::close);
            controllers.forEach(ChildProcess::close);
        }
    }

    /**
     * The stock replica answers pulls (a stock slave refuses them unless slaveReadEnable) and reports every
     * second when idle: after the handshake a stock replica reports its offset only once its log grew or
     * {@code haSendHeartbeatInterval} (5 s) passed, and the master streams only after that first report.
     */
    private static Map<String, String> replicaSettings() {
        return Map.of("allAckInSyncStateSet", "true", "slaveReadEnable", "true", "haSendHeartbeatInterval", "1000");
    }

    private static long otherThan(BrokerReplicasInfo.ReplicasInfo info, long masterId) {
        return info.getInSyncReplicas().stream().mapToLong(BrokerReplicasInfo.ReplicaIdentity::getBrokerId)
                .filter(id -> id != masterId).findFirst().orElseThrow();
    }
}
