package org.modmq.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.modmq.controller.ControllerConfig;
import org.modmq.controller.ControllerServer;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.FreePort;

/** One in-process controller peer on free loopback ports with short timeouts, for broker tests. */
final class TestControllers {

    private TestControllers() {
    }

    /**
     * Starts a one-peer controller of {@code group} storing under {@code dir} and waits until it serves as
     * leader: Raft election timeouts 250-500 ms, a 1.5 s heartbeat timeout, scans every 50 ms.
     *
     * @param extra further controller keys and values, in pairs
     */
    static ControllerServer start(Path dir, String group, Duration wait, String... extra) {
        int[] ports = FreePort.pick(2);
        Map<String, String> values = new LinkedHashMap<>();
        values.put("controllerDLegerGroup", group);
        values.put("controllerDLegerPeers", "n0-127.0.0.1:" + ports[0]);
        values.put("controllerRaftPeers", "n0-127.0.0.1:" + ports[1]);
        values.put("controllerDLegerSelfId", "n0");
        values.put("controllerStorePath", dir.toString());
        values.put("raftElectionTimeoutMin", "250");
        values.put("raftElectionTimeoutMax", "500");
        values.put("brokerHeartbeatTimeoutMills", "1500");
        values.put("scanNotActiveBrokerInterval", "50");
        for (int i = 0; i + 1 < extra.length; i += 2) {
            values.put(extra[i], extra[i + 1]);
        }
        ControllerServer controller = new ControllerServer(ControllerConfig.parse(values, warning -> { })).start();
        try {
            Await.until("a serving controller leader", wait, controller::isServingLeader);
        } catch (RuntimeException | Error e) {
            controller.close();
            throw e;
        }
        return controller;
    }
}
