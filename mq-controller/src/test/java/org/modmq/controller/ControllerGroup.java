package org.modmq.controller;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.FreePort;

/**
 * Controller peers in this JVM on free loopback ports, with short timeouts: Raft election timeout
 * 250-500 ms, broker heartbeat timeout 1 s, a liveness scan every 20 ms. Each peer's store is under
 * {@code root/<id>}. Peers can be stopped and started again on the same ports and store. Not thread-safe;
 * close it once done.
 */
final class ControllerGroup implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(20);
    static final long HEARTBEAT_TIMEOUT_MILLIS = 1000;
    static final long ELECTION_TIMEOUT_MAX_MILLIS = 500;

    private final List<ControllerConfig> configs = new ArrayList<>();
    private final List<ControllerServer> servers = new ArrayList<>();

    ControllerGroup(Path root, int size) {
        int[] ports = FreePort.pick(size * 2);
        StringBuilder remoting = new StringBuilder();
        StringBuilder raft = new StringBuilder();
        for (int i = 0; i < size; i++) {
            remoting.append("n").append(i).append("-127.0.0.1:").append(ports[2 * i]).append(';');
            raft.append("n").append(i).append("-127.0.0.1:").append(ports[2 * i + 1]).append(';');
        }
        for (int i = 0; i < size; i++) {
            Map<String, String> values = new LinkedHashMap<>();
            values.put("controllerDLegerGroup", "test-group");
            values.put("controllerDLegerPeers", remoting.toString());
            values.put("controllerRaftPeers", raft.toString());
            values.put("controllerDLegerSelfId", "n" + i);
            values.put("controllerStorePath", root.resolve("n" + i).toString());
            values.put("raftElectionTimeoutMin", "250");
            values.put("raftElectionTimeoutMax", Long.toString(ELECTION_TIMEOUT_MAX_MILLIS));
            values.put("brokerHeartbeatTimeoutMills", Long.toString(HEARTBEAT_TIMEOUT_MILLIS));
            values.put("scanNotActiveBrokerInterval", "20");
            values.put("controllerWriteTimeoutMills", "2000");
            configs.add(ControllerConfig.parse(values, warning -> { }));
            servers.add(null);
        }
        for (int i = 0; i < size; i++) {
            start(i);
        }
    }

    /** Starts peer {@code i} (again). */
    ControllerServer start(int i) {
        if (servers.get(i) != null) {
            throw new IllegalStateException("n" + i + " runs");
        }
        ControllerServer server = new ControllerServer(configs.get(i)).start();
        servers.set(i, server);
        return server;
    }

    /** Stops peer {@code i}. */
    void stop(int i) {
        ControllerServer server = servers.set(i, null);
        if (server != null) {
            server.close();
        }
    }

    ControllerServer peer(int i) {
        return servers.get(i);
    }

    int indexOf(ControllerServer server) {
        return servers.indexOf(server);
    }

    /** @return every peer's remoting address, {@code ;}-separated: a broker's {@code controllerAddr} */
    String addresses() {
        return String.join(";", configs.stream().map(c -> c.self().remotingAddress()).toList());
    }

    List<String> addressList() {
        return configs.stream().map(c -> c.self().remotingAddress()).toList();
    }

    /** Waits for a running peer that serves as leader. */
    ControllerServer awaitLeader() {
        return Await.value("a serving controller leader", WAIT, () -> leader().orElse(null));
    }

    Optional<ControllerServer> leader() {
        return servers.stream().filter(s -> s != null && s.isServingLeader()).findFirst();
    }

    /** Waits until the leader has led long enough that inactivity may trigger elections (the lease rule). */
    void awaitLeaseWindow(ControllerServer leader) {
        Await.until("leader past its lease window", WAIT, () -> {
            var leadership = leader.eventLog().leadership();
            return leadership.mayWrite() && leader.liveness().now() - leadership.leaderSinceMillis()
                    > HEARTBEAT_TIMEOUT_MILLIS + ELECTION_TIMEOUT_MAX_MILLIS + 50;
        });
    }

    @Override
    public void close() {
        for (int i = 0; i < servers.size(); i++) {
            stop(i);
        }
    }
}
