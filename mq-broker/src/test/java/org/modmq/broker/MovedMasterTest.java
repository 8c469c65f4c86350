package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.controller.ControllerServer;
import org.modmq.namesrv.NamesrvConfig;
import org.modmq.namesrv.NamesrvServer;
import org.modmq.testkit.process.Await;

/**
 * A master that comes back on other ports (a new pod, a new host, a changed config) keeps its id and
 * epoch; a replica that learned the old address from the controller before the master registered the
 * new one follows the new one. Before, the replica retried the dead address for as long as it ran.
 */
@Tag("integration")
@Timeout(120)
class MovedMasterTest {

    private static final Duration WAIT = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    private NamesrvServer namesrv;
    private ControllerServer controller;
    private final List<HaNode> nodes = new ArrayList<>();

    @AfterEach
    void stop() {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
        if (controller != null) {
            controller.close();
        }
        if (namesrv != null) {
            namesrv.close();
        }
    }

    private void startController() {
        controller = TestControllers.start(dir.resolve("controller"), "moved-group", WAIT);
    }

    private HaNode broker(String name, int haPort) {
        HaNode node = HaNode.start(dir.resolve(name), HaNode.freePort(), haPort, namesrv.address(),
                "enableControllerMode", "true", "controllerAddr", controller.address(),
                "brokerClusterName", "MovedCluster", "brokerHeartbeatInterval", "200",
                "controllerHeartBeatTimeoutMills", "1500", "syncBrokerMetadataPeriod", "1000",
                "checkSyncStateSetPeriod", "500");
        nodes.add(node);
        return node;
    }

    private static RoleState role(HaNode node) {
        return node.binding().store().role();
    }

    private void close(HaNode node) {
        node.close();
        nodes.remove(node);
    }

    @Test
    void aReplicaFollowsItsMasterToItsNewAddress() {
        namesrv = new NamesrvServer(NamesrvConfig.defaults().withListenPort(0)).start();
        startController();
        HaNode a = broker("a", HaNode.freePort());
        Await.until("a to be master", WAIT, () -> role(a).master());
        HaNode b = broker("b", HaNode.freePort());
        Await.until("b to follow a", WAIT, () -> !role(b).master() && role(b).masterHaAddress() != null);
        int epoch = role(a).epoch();

        // The replica goes first and the master drops it from the SyncStateSet, so that nobody can be
        // elected while the master is away: the set keeps master a at its old address.
        close(b);
        Await.until("the SyncStateSet to shrink to the master", WAIT, () -> a.binding().store().syncStateSet().size() == 1);
        close(a);

        // The replica comes back first and is told the master's old, dead address.
        HaNode b2 = broker("b", HaNode.freePort());
        Await.until("b to be a replica of epoch " + epoch, WAIT, () -> !role(b2).master() && role(b2).epoch() == epoch);

        // The master comes back on new ports, under the same id and epoch.
        int newHaPort = HaNode.freePort();
        HaNode a2 = broker("a", newHaPort);
        Await.until("a to be master again", WAIT, () -> role(a2).master());
        assertThat(role(a2).epoch()).isEqualTo(epoch);
        Await.until("b to follow a's new HA address", WAIT,
                () -> ("127.0.0.1:" + newHaPort).equals(role(b2).masterHaAddress()));
        Await.until("a to count b as a connected replica", WAIT, () -> !a2.binding().store().replicas().isEmpty());
    }
}
