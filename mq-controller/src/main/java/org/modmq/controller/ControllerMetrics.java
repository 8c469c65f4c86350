package org.modmq.controller;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.api.spi.MetricsSink;
import org.modmq.controller.core.ElectionObserver;
import org.modmq.controller.core.Leadership;
import org.modmq.remoting.netty.RpcObserver;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * RocketMQ 5's controller figures ({@code ControllerMetricsConstant}), with its names, which carry no
 * {@code rocketmq_} prefix: {@code role} (0 unknown, 1 candidate, 2 follower, 3 leader),
 * {@code request_total} and {@code request_latency} (µs) per controller request type,
 * {@code election_total} per broker set and outcome, {@code active_broker_num} per broker set. Each
 * carries RocketMQ's {@code group} and {@code peer_id} labels. Thread-safe.
 */
final class ControllerMetrics implements RpcObserver, ElectionObserver {

    /** RocketMQ's latency buckets, in microseconds: 1 µs to 10 s. */
    static final double[] LATENCY_BUCKETS_US = {1, 3, 5, 10, 30, 50, 100, 300, 500, 1_000, 3_000, 5_000, 10_000,
        30_000, 50_000, 100_000, 300_000, 500_000, 1_000_000, 3_000_000, 5_000_000, 10_000_000};

    private final String group;
    private final String peerId;
    private final MetricsSink.Family<MetricsSink.Counter> requests;
    private final MetricsSink.Family<MetricsSink.Histogram> latency;
    private final MetricsSink.Family<MetricsSink.Counter> elections;
    private final Map<String, MetricsSink.Counter> requestHandles = new ConcurrentHashMap<>();
    private final Map<String, MetricsSink.Histogram> latencyHandles = new ConcurrentHashMap<>();

    private ControllerMetrics(MetricsSink sink, String group, String peerId) {
        this.group = group;
        this.peerId = peerId;
        this.requests = sink.counter("request_total", "Controller requests handled", "group", "peer_id",
                "request_type", "request_handle_status");
        this.latency = sink.histogram("request_latency", "Time a controller request takes, in microseconds",
                LATENCY_BUCKETS_US, "group", "peer_id", "request_type");
        this.elections = sink.counter("election_total", "Master elections run by this controller as leader",
                "group", "peer_id", "cluster", "broker_set", "election_result");
    }

    /** Registers the families with {@code sink} and wires the observers into {@code controller}'s parts. */
    static ControllerMetrics register(MetricsSink sink, ControllerServer controller) {
        String group = controller.config().group();
        String self = controller.config().selfId();
        ControllerMetrics metrics = new ControllerMetrics(sink, group, self);
        sink.gaugeCallback("role", "Raft role of this controller peer: 0 unknown, 1 candidate, 2 follower, 3 leader",
                out -> out.sample(roleValue(controller.leadership()), group, self), "group", "peer_id");
        sink.gaugeCallback("active_broker_num", "Brokers of each broker set heard from within their timeout",
                out -> controller.liveness().activeBySet().forEach((set, count) ->
                        out.sample(count, group, self, set.get(0), set.get(1))),
                "group", "peer_id", "cluster", "broker_set");
        return metrics;
    }

    static int roleValue(Leadership leadership) {
        if (leadership.leader()) {
            return 3;
        }
        // A peer that knows a leader follows it; one that does not is in an election.
        return leadership.leaderId() != null ? 2 : 1;
    }

    /** RocketMQ's {@code request_type} of a controller request code, or null for another code. */
    static String requestType(int code) {
        if (code != RequestCode.BROKER_HEARTBEAT
                && (code < RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET || code > RequestCode.CONTROLLER_APPLY_BROKER_ID)) {
            return null;
        }
        String name = RequestCode.name(code);
        if (name == null) {
            return null;
        }
        return name.startsWith("CONTROLLER_") ? name : "CONTROLLER_" + name;
    }

    @Override
    public void answered(int requestCode, int responseCode, Result result, boolean held, long elapsedNanos) {
        String type = requestType(requestCode);
        if (type == null) {
            return;
        }
        // RocketMQ counts a request as failed when its processor threw, which modmq answers with SYSTEM_ERROR.
        String status = responseCode == ResponseCode.SYSTEM_ERROR ? "failed" : "success";
        requestHandles.computeIfAbsent(type + '/' + status, k -> requests.labels(group, peerId, type, status)).inc(1);
        latencyHandles.computeIfAbsent(type, k -> latency.labels(group, peerId, type)).observe(elapsedNanos / 1e3);
    }

    @Override
    public void elected(String clusterName, String brokerName, int responseCode) {
        String outcome = switch (responseCode) {
            case ResponseCode.SUCCESS -> "new_master_elected";
            case ResponseCode.CONTROLLER_MASTER_STILL_EXIST -> "keep_current_master";
            case ResponseCode.CONTROLLER_MASTER_NOT_AVAILABLE, ResponseCode.CONTROLLER_ELECT_MASTER_FAILED ->
                    "no_master_elected";
            default -> null;
        };
        if (outcome != null) {
            elections.labels(group, peerId, clusterName, brokerName, outcome).inc(1);
        }
    }
}
