package org.modmq.interop;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A modmq broker in controller mode ({@code haStrategy=pull}) replicates from an Apache RocketMQ 5.3.3
 * master over RocketMQ 5's AutoSwitch HA protocol ({@link ControllerModeReplication}): the stock broker
 * is elected first; the modmq broker learns the master's HA address (GET_BROKER_CONFIG to the master),
 * syncs across CommitLog files, joins the SyncStateSet, follows the master's restart into a later epoch,
 * serves pulls sent to its own address, and ends with the master's CommitLog bytes and epoch history.
 */
@Tag("integration")
class ModmqReplicaFollowsStockMasterInControllerModeTest {

    private static final Logger LOG = LoggerFactory.getLogger(ModmqReplicaFollowsStockMasterInControllerModeTest.class);
    private static final String TOPIC = "InteropAutoSwitchB";

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void modmqReplicaFollowsAcrossFilesAndEpochs(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path work) {
        new ControllerModeReplication(work, new Phases(LOG, "stock master -> modmq replica (controller mode)"), TOPIC, 2)
                .run((namesrv, controllers) -> {
                    StockRocketMq.StockBroker broker = StockRocketMq.startControllerModeBroker(work, "stock-a",
                            namesrv, controllers, Map.of("allAckInSyncStateSet", "true"));
                    return new ControllerModeReplication.Node(broker.process(), broker.commitLogDir());
                }, (namesrv, controllers) -> {
                    ModmqDistribution.ModmqBroker broker = ModmqDistribution.startControllerModeBroker(work, "modmq-b",
                            namesrv, controllers, Map.of());
                    return new ControllerModeReplication.Node(broker.process(), broker.commitLogDir());
                }, (admin, replicaAddr) -> { });
    }
}
