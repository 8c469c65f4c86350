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
 * An old master holding a tail that the new master lacks cuts it and follows, across implementations:
 * three modmq controllers with {@code enableElectUncleanMaster=true}, a stock name server, a modmq broker
 * and an Apache RocketMQ 5.3.3 broker of one set in controller mode.
 *
 * <p>Twice, once each way round: the replica is killed ({@code kill -9}), the master stores messages alone
 * (its SyncStateSet shrank to itself), the master is killed too, the old replica restarts first and the
 * controllers elect it although it is outside the SyncStateSet (an unclean election: the old master's
 * tail is lost); it takes sends in the new epoch; the old master restarts, its handshake finds the
 * histories agreeing only up to the new epoch's start, it cuts its tail there (modmq's
 * {@code HandshakeReconciler} against a stock master, then RocketMQ's {@code doTruncate} against a modmq
 * master) and follows into the SyncStateSet. At the end the stock replica serves exactly the messages that
 * survived, both answer the same epochs, and the CommitLogs and epoch files are identical.
 */
@Tag("integration")
class UncleanElectionAcrossImplementationsTest {

    private static final Logger LOG = LoggerFactory.getLogger(UncleanElectionAcrossImplementationsTest.class);
    private static final String TOPIC = "InteropUnclean";
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Stored by a master alone, then lost in the unclean election. */
    private static final int LOST = 150;
    private static final int SENDS_PER_MASTER = 300;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void anOldMasterCutsTheTailItAloneHeldAndFollows(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path work) {
        Phases phases = new Phases(LOG, "unclean election across implementations");
        List<ChildProcess> controllers = ModmqDistribution.startControllers(work,
                Map.of("enableElectUncleanMaster", "true"));
        List<ChildProcess> running = new ArrayList<>();
        try (ChildProcess namesrv = StockRocketMq.startNamesrv(work);
                StockAdmin admin = new StockAdmin(namesrv.address())) {
            String controllerAddr = String.join(";", controllers.stream().map(ChildProcess::address).toList());
            ControllerView view = new ControllerView(admin, controllers.get(0).address());
            String ns = namesrv.address();
            phases.done("stock name server and 3 modmq controllers started");

            ModmqDistribution.ModmqBroker modmq = ModmqDistribution.startControllerModeBroker(work, "modmq-a", ns,
                    controllerAddr, Map.of());
            ChildProcess modmqRun = modmq.process();
            running.add(modmqRun);
            String modmqAddr = modmqRun.address();
            BrokerReplicasInfo.ReplicasInfo first = view.awaitMaster(modmqAddr, 0, WAIT);
            Scenario.createTopic(admin, modmqAddr, TOPIC);
            Scenario.awaitRoute(admin, TOPIC);
            StockRocketMq.StockBroker stock = StockRocketMq.startControllerModeBroker(work, "stock-b", ns,
                    controllerAddr, StockReplicaFollowsModmqMasterInControllerModeTest.replicaSettings());
            ChildProcess stockRun = stock.process();
            running.add(stockRun);
            String stockAddr = stockRun.address();
            // The stock broker would fetch topic configs from the modmq master's VIP port (listenPort - 2),
            // where modmq does not listen.
            Await.value(stockAddr + " to take " + TOPIC, WAIT, () -> {
                admin.createTopic(stockAddr, TOPIC, 4);
                return Boolean.TRUE;
            });
            Scenario.Burst kept = Scenario.sendBurst(admin, ns, TOPIC, modmqAddr, stockAddr, phases);
            view.awaitInSync(2, WAIT);
            phases.done("modmq-a master of epoch " + first.getMasterEpoch() + ", stock-b in its SyncStateSet");

            long stockEnd = loseTail(admin, view, ns, stockRun, modmqRun, modmqAddr, kept.masterMax());
            running.clear();
            phases.done("stock-b killed at " + stockEnd + ", " + LOST + " messages stored by modmq-a alone, modmq-a killed");
            stockRun = stockRun.restart(StockRocketMq.START_TIMEOUT);
            running.add(stockRun);
            BrokerReplicasInfo.ReplicasInfo second = view.awaitMaster(stockAddr, first.getMasterEpoch(), WAIT);
            kept = kept.then(Scenario.sendToMaster(admin, ns, TOPIC, stockAddr, SENDS_PER_MASTER, 4L));
            phases.done("stock-b elected uncleanly in epoch " + second.getMasterEpoch() + ", took sends");
            modmqRun = modmqRun.restart(ModmqDistribution.START_TIMEOUT);
            running.add(modmqRun);
            Scenario.awaitFollowing(admin, view, stockAddr, modmqAddr, second.getMasterEpoch());
            assertThat(admin.epochs(modmqAddr)).as("modmq-a's epochs after the cut").isEqualTo(admin.epochs(stockAddr));
            phases.done("modmq-a restarted, cut its tail back to " + stockEnd + " and follows stock-b");

            long modmqEnd = loseTail(admin, view, ns, modmqRun, stockRun, stockAddr, kept.masterMax());
            running.clear();
            phases.done("modmq-a killed, " + LOST + " messages stored by stock-b alone, stock-b killed");
            modmqRun = modmqRun.restart(ModmqDistribution.START_TIMEOUT);
            running.add(modmqRun);
            BrokerReplicasInfo.ReplicasInfo third = view.awaitMaster(modmqAddr, second.getMasterEpoch(), WAIT);
            kept = kept.then(Scenario.sendToMaster(admin, ns, TOPIC, modmqAddr, SENDS_PER_MASTER, 5L));
            phases.done("modmq-a elected uncleanly in epoch " + third.getMasterEpoch() + ", took sends");
            stockRun = stockRun.restart(StockRocketMq.START_TIMEOUT);
            running.add(stockRun);
            long end = Scenario.awaitFollowing(admin, view, modmqAddr, stockAddr, third.getMasterEpoch());
            phases.done("stock-b restarted, cut its tail back to " + modmqEnd + " and follows modmq-a up to " + end);

            List<String> epochs = admin.epochs(modmqAddr);
            assertThat(epochs).as("modmq-a's epochs").hasSize(3);
            assertThat(admin.epochs(stockAddr)).as("stock-b's epochs").isEqualTo(epochs);
            int pulled = SlaveReader.assertServesAt(ns, stockAddr, kept.sent());
            phases.done(pulled + " surviving messages pulled from stock-b");

            assertThat(stockRun.stop(ChildProcess.STOP_TIMEOUT)).as("stock-b stops on SIGTERM").isTrue();
            assertThat(modmqRun.stop(ChildProcess.STOP_TIMEOUT)).as("modmq-a stops on SIGTERM").isTrue();
            int files = CommitLogs.assertIdentical(modmq.commitLogDir(), stock.commitLogDir(), end,
                    BrokerSettings.COMMIT_LOG_FILE_SIZE);
            assertThat(EpochCheckpoints.entries(stock.commitLogDir().getParent())).as("stock-b's epochFileCheckpoint")
                    .isEqualTo(EpochCheckpoints.entries(modmq.commitLogDir().getParent())).isEqualTo(epochs);
            phases.done(end + " bytes in " + files + " CommitLog files identical, epochs " + epochs);
        } finally {
            running.forEach(ChildProcess::close);
            controllers.forEach(ChildProcess::close);
        }
    }

    /**
     * Kills the replica, waits until the SyncStateSet holds the master alone, has the master store
     * {@value #LOST} messages, then kills the master and waits until the set has no master.
     *
     * @param replicaEnd the replica's log end (it was caught up)
     * @return {@code replicaEnd}, where the lost tail starts
     */
    private static long loseTail(StockAdmin admin, ControllerView view, String namesrvAddr, ChildProcess replica,
            ChildProcess master, String masterAddr, long replicaEnd) {
        assertThat(admin.commitLogMaxOffset(replica.address())).as("the replica's log end").isEqualTo(replicaEnd);
        replica.kill();
        view.awaitInSync(1, WAIT);
        try (StockTraffic traffic = new StockTraffic(namesrvAddr, TOPIC, 9L)) {
            traffic.send(LOST);
        }
        assertThat(admin.commitLogMaxOffset(masterAddr)).as("the master's log end with the tail")
                .isGreaterThan(replicaEnd);
        master.kill();
        view.awaitNoMaster(WAIT);
        return replicaEnd;
    }
}
