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
 * Automatic failover between the two implementations in one broker set, under three modmq controllers
 * and a stock name server, both brokers in controller mode with {@code allAckInSyncStateSet=true}:
 *
 * <ol>
 *   <li>a modmq master (elected first) and an Apache RocketMQ 5.3.3 replica in its SyncStateSet take a
 *       burst from the stock producer;</li>
 *   <li>{@code kill -9} of the modmq master: the controllers elect the stock replica, which registers as
 *       id 0 and stores a stock producer's sends; the modmq broker restarts and follows it (AutoSwitch,
 *       stock master) back into the SyncStateSet;</li>
 *   <li>{@code kill -9} of the stock master: the controllers elect the modmq broker, which stores the next
 *       sends; the stock broker restarts and follows it back into the SyncStateSet;</li>
 *   <li>both answer the same three epochs, the stock replica serves every message sent, and once both
 *       stopped their CommitLogs are byte-identical and their {@code epochFileCheckpoint}s equal.</li>
 * </ol>
 */
@Tag("integration")
class FailoverAcrossImplementationsTest {

    private static final Logger LOG = LoggerFactory.getLogger(FailoverAcrossImplementationsTest.class);
    private static final String TOPIC = "InteropCrossFailover";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int SENDS_PER_MASTER = 300;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void eachImplementationTakesOverFromTheOtherAndTheOldMasterFollows(
            @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path work) {
        Phases phases = new Phases(LOG, "failover across implementations");
        List<ChildProcess> controllers = ModmqDistribution.startControllers(work);
        List<ChildProcess> running = new ArrayList<>();
        try (ChildProcess namesrv = StockRocketMq.startNamesrv(work);
                StockAdmin admin = new StockAdmin(namesrv.address())) {
            String controllerAddr = String.join(";", controllers.stream().map(ChildProcess::address).toList());
            ControllerView view = new ControllerView(admin, controllers.get(0).address());
            phases.done("stock name server and 3 modmq controllers started");

            ModmqDistribution.ModmqBroker modmq = ModmqDistribution.startControllerModeBroker(work, "modmq-a",
                    namesrv.address(), controllerAddr, Map.of());
            running.add(modmq.process());
            String modmqAddr = modmq.process().address();
            BrokerReplicasInfo.ReplicasInfo first = view.awaitMaster(modmqAddr, 0, WAIT);
            Scenario.createTopic(admin, modmqAddr, TOPIC);
            Scenario.awaitRoute(admin, TOPIC);
            StockRocketMq.StockBroker stock = StockRocketMq.startControllerModeBroker(work, "stock-b",
                    namesrv.address(), controllerAddr, StockReplicaFollowsModmqMasterInControllerModeTest.replicaSettings());
            running.add(stock.process());
            String stockAddr = stock.process().address();
            // The stock broker fetches topic configs from the modmq master's VIP port (listenPort - 2); it
            // needs the topic to serve it as master and as replica.
            Await.until(stockAddr + " to learn " + TOPIC + " from its master", WAIT,
                    () -> admin.topics(stockAddr).contains(TOPIC));
            Scenario.Burst burst = Scenario.sendBurst(admin, namesrv.address(), TOPIC, modmqAddr, stockAddr, phases);
            view.awaitInSync(2, WAIT);
            phases.done("modmq-a master of epoch " + first.getMasterEpoch() + ", stock-b in its SyncStateSet");

            ChildProcess modmqRun = modmq.process();
            modmqRun.kill();
            running.remove(modmqRun);
            BrokerReplicasInfo.ReplicasInfo second = view.awaitMaster(stockAddr, first.getMasterEpoch(), WAIT);
            burst = burst.then(Scenario.sendToMaster(admin, namesrv.address(), TOPIC, stockAddr, SENDS_PER_MASTER, 4L));
            phases.done("modmq-a killed; stock-b master of epoch " + second.getMasterEpoch() + " took "
                    + SENDS_PER_MASTER + " sends");
            modmqRun = modmqRun.restart(ModmqDistribution.START_TIMEOUT);
            running.add(modmqRun);
            Scenario.awaitFollowing(admin, view, stockAddr, modmqAddr, second.getMasterEpoch());
            phases.done("modmq-a restarted, caught up with stock-b and in its SyncStateSet");

            ChildProcess stockRun = stock.process();
            stockRun.kill();
            running.remove(stockRun);
            BrokerReplicasInfo.ReplicasInfo third = view.awaitMaster(modmqAddr, second.getMasterEpoch(), WAIT);
            burst = burst.then(Scenario.sendToMaster(admin, namesrv.address(), TOPIC, modmqAddr, SENDS_PER_MASTER, 5L));
            phases.done("stock-b killed; modmq-a master of epoch " + third.getMasterEpoch() + " took "
                    + SENDS_PER_MASTER + " sends");
            stockRun = stockRun.restart(StockRocketMq.START_TIMEOUT);
            running.add(stockRun);
            long end = Scenario.awaitFollowing(admin, view, modmqAddr, stockAddr, third.getMasterEpoch());
            phases.done("stock-b restarted, caught up with modmq-a at " + end + " and in its SyncStateSet");

            List<String> epochs = admin.epochs(modmqAddr);
            assertThat(epochs).as("modmq-a's epochs").hasSize(3);
            assertThat(admin.epochs(stockAddr)).as("stock-b's epochs").isEqualTo(epochs);
            int pulled = SlaveReader.assertServesAt(namesrv.address(), stockAddr, burst.sent());
            phases.done(pulled + " messages pulled from stock-b");

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
}
