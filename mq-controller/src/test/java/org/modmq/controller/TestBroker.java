package org.modmq.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.modmq.remoting.netty.ProcessorExecutors;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RemotingServerConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * A broker as the controller sees it, speaking RocketMQ's controller protocol with modmq's remoting
 * client: the registration steps (1012, 1013, 1003), heartbeats (904, two-way) to every controller,
 * elections (1002) and sync-state set changes (1001). It listens on its broker address for
 * {@code NOTIFY_BROKER_ROLE_CHANGED} and records what arrives, with the arrival time. Closing it closes
 * its connections, which the controllers see at once. Not thread-safe; close it once done.
 */
final class TestBroker implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(5);

    final String clusterName;
    final String brokerName;
    final List<String> controllers;
    final long brokerId;
    private final RemotingClient client = new RemotingClient(RemotingClientConfig.defaults());
    private final RemotingServer listener = new RemotingServer(RemotingServerConfig.of("127.0.0.1", 0).withIoThreads(1));
    private final ExecutorService executor = ProcessorExecutors.bounded("TestBroker", 1, 100);
    final List<Notification> notifications = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.ScheduledExecutorService beats =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "TestBroker-heartbeat");
                thread.setDaemon(true);
                return thread;
            });
    private volatile int epoch;
    private volatile long maxOffset;

    record Notification(long nanoTime, Map<String, String> header, String body) {
    }

    TestBroker(String clusterName, String brokerName, long brokerId, List<String> controllers) {
        this.clusterName = clusterName;
        this.brokerName = brokerName;
        this.brokerId = brokerId;
        this.controllers = List.copyOf(controllers);
        listener.registerProcessor(RequestCode.NOTIFY_BROKER_ROLE_CHANGED, (channel, request) -> {
            notifications.add(new Notification(System.nanoTime(), Map.copyOf(request.extFields()),
                    new String(request.body(), java.nio.charset.StandardCharsets.UTF_8)));
            return null;
        }, executor);
        listener.start();
    }

    String address() {
        return "127.0.0.1:" + listener.port();
    }

    /** Runs {@code hook} on every request from now on (a signer, for a controller with ACL on). */
    TestBroker withOutgoingHook(org.modmq.remoting.netty.OutgoingRequestHook hook) {
        client.setOutgoingRequestHook(hook);
        return this;
    }

    RemotingCommand invoke(String controller, RemotingCommand request) {
        try {
            return client.invoke(controller, request, TIMEOUT).get(TIMEOUT.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("request " + request.code() + " to " + controller + " failed", e);
        }
    }

    RemotingCommand nextBrokerId(String controller) {
        return invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_GET_NEXT_BROKER_ID,
                Map.of("clusterName", clusterName, "brokerName", brokerName)));
    }

    RemotingCommand applyBrokerId(String controller, long id) {
        return invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_APPLY_BROKER_ID, Map.of(
                "clusterName", clusterName, "brokerName", brokerName, "appliedBrokerId", Long.toString(id),
                "registerCheckCode", address() + ";" + brokerId)));
    }

    RemotingCommand register(String controller) {
        return invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_REGISTER_BROKER, Map.of(
                "clusterName", clusterName, "brokerName", brokerName, "brokerId", Long.toString(brokerId),
                "brokerAddress", address())));
    }

    /** Sends one two-way heartbeat to every controller and returns the answers. */
    List<RemotingCommand> heartbeat(int epoch, long maxOffset) {
        return controllers.stream().map(c -> heartbeat(c, epoch, maxOffset)).toList();
    }

    RemotingCommand heartbeat(String controller, int epoch, long maxOffset) {
        return invoke(controller, RemotingCommand.request(RequestCode.BROKER_HEARTBEAT, Map.of(
                "clusterName", clusterName, "brokerName", brokerName, "brokerAddr", address(),
                "brokerId", Long.toString(brokerId), "epoch", Integer.toString(epoch), "maxOffset", Long.toString(maxOffset),
                "confirmOffset", Long.toString(maxOffset), "heartbeatTimeoutMills",
                Long.toString(ControllerGroup.HEARTBEAT_TIMEOUT_MILLIS), "electionPriority", "0")));
    }

    RemotingCommand elect(String controller) {
        return invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_ELECT_MASTER, Map.of(
                "clusterName", clusterName, "brokerName", brokerName, "brokerId", Long.toString(brokerId),
                "designateElect", "false")));
    }

    RemotingCommand replicaInfo(String controller) {
        return invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_GET_REPLICA_INFO,
                Map.of("brokerName", brokerName)));
    }

    RemotingCommand alterSyncStateSet(String controller, int masterEpoch, String body) {
        return invoke(controller, RemotingCommand.request(RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET, Map.of(
                "brokerName", brokerName, "masterBrokerId", Long.toString(brokerId),
                "masterEpoch", Integer.toString(masterEpoch))).withBody(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /** Runs the full registration against {@code leader}: next id, apply, register; then one heartbeat to all. */
    void join(String leader) {
        expectSuccess(nextBrokerId(leader));
        expectSuccess(applyBrokerId(leader, brokerId));
        expectSuccess(register(leader));
        heartbeat(0, 0);
    }

    /** Heartbeats to every controller every 100 ms (one-way, as stock brokers do) until closed. */
    void startHeartbeats() {
        beats.scheduleWithFixedDelay(() -> {
            for (String controller : controllers) {
                client.invokeOneway(controller, RemotingCommand.request(RequestCode.BROKER_HEARTBEAT, Map.of(
                        "clusterName", clusterName, "brokerName", brokerName, "brokerAddr", address(),
                        "brokerId", Long.toString(brokerId), "epoch", Integer.toString(epoch),
                        "maxOffset", Long.toString(maxOffset), "confirmOffset", Long.toString(maxOffset),
                        "heartbeatTimeoutMills", Long.toString(ControllerGroup.HEARTBEAT_TIMEOUT_MILLIS))));
            }
        }, 0, 100, TimeUnit.MILLISECONDS);
    }

    /** What the periodic heartbeats report from now on. */
    void report(int newEpoch, long newMaxOffset) {
        epoch = newEpoch;
        maxOffset = newMaxOffset;
    }

    static RemotingCommand expectSuccess(RemotingCommand response) {
        if (response.code() != ResponseCode.SUCCESS) {
            throw new AssertionError("expected SUCCESS, got " + ResponseCode.name(response.code()) + ": " + response.remark());
        }
        return response;
    }

    @Override
    public void close() {
        beats.shutdownNow();
        client.close();
        listener.close();
        executor.shutdownNow();
    }
}
