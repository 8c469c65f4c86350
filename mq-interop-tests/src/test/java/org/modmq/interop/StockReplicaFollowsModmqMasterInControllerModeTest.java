package org.modmq.interop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Apache RocketMQ 5.3.3 broker in controller mode replicates from a modmq master over RocketMQ 5's
 * AutoSwitch HA protocol ({@link ControllerModeReplication}): a modmq broker in controller mode
 * ({@code haStrategy=pull}) is elected first, a stock broker of the same set learns its HA address from
 * the stock name server, syncs across CommitLog files, joins the SyncStateSet, follows the master's
 * restart into a later epoch, serves pulls sent to its own address, and ends with the master's CommitLog
 * bytes and epoch history.
 */
@Tag("integration")
class StockReplicaFollowsModmqMasterInControllerModeTest {

    private static final Logger LOG = LoggerFactory.getLogger(StockReplicaFollowsModmqMasterInControllerModeTest.class);
    private static final String TOPIC = "InteropAutoSwitchA";

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void stockReplicaFollowsAcrossFilesAndEpochs(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path work) {
        new ControllerModeReplication(work, new Phases(LOG, "modmq master -> stock replica (controller mode)"), TOPIC, 1)
                .run((namesrv, controllers) -> {
                    ModmqDistribution.ModmqBroker broker = ModmqDistribution.startControllerModeBroker(work, "modmq-a",
                            namesrv, controllers, Map.of());
                    return new ControllerModeReplication.Node(broker.process(), broker.commitLogDir());
                }, (namesrv, controllers) -> {
                    StockRocketMq.StockBroker broker = StockRocketMq.startControllerModeBroker(work, "stock-b",
                            namesrv, controllers, replicaSettings());
                    return new ControllerModeReplication.Node(broker.process(), broker.commitLogDir());
                }, (admin, replicaAddr) ->
                    // A stock replica fetches its master's topic configs from the master's VIP port
                    // (listenPort - 2, hard-coded in RocketMQ's BrokerOuterAPI#getAllTopicConfig); the modmq
                    // master serves them there, so the replica learns the topic by itself.
                    Await.until(replicaAddr + " to learn " + TOPIC + " from its master", Duration.ofSeconds(60),
                            () -> admin.topics(replicaAddr).contains(TOPIC)));
    }

    /**
     * The stock replica answers pulls (a stock slave refuses them unless slaveReadEnable) and reports every
     * second when idle: after the handshake a stock replica reports its offset only once its log grew or
     * {@code haSendHeartbeatInterval} (5 s) passed, and the master streams only after that first report.
     */
    static Map<String, String> replicaSettings() {
        return Map.of("allAckInSyncStateSet", "true", "slaveReadEnable", "true", "haSendHeartbeatInterval", "1000");
    }
}
