package org.modmq.remoting.netty;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.api.spi.MetricsSink;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * RocketMQ 5's {@code rocketmq_rpc_latency}: a histogram in milliseconds of the time from a request's
 * dispatch to the end of its answer's write, with RocketMQ's buckets (1, 3, 5, 7, 10, 100 ms, 1, 2, 3 s)
 * and labels: {@code protocol_type} ({@code remoting}), {@code request_code} and {@code response_code}
 * (the codes' constant names in lower case; a response code without a name as its number, as RocketMQ
 * prints it, a request code without one as {@code unknown}), {@code is_long_polling} (a pull held for new messages) and {@code result}.
 * Reports through a {@link MetricsSink}, so the servers wire it with whatever exporter they run.
 * Thread-safe.
 */
public final class RpcLatencyMetrics implements RpcObserver {

    /** RocketMQ's bucket bounds, in milliseconds. */
    static final String UNKNOWN_CODE = "unknown";
    static final double[] BUCKETS_MS = {1, 3, 5, 7, 10, 100, 1_000, 2_000, 3_000};

    private record Key(int requestCode, int responseCode, Result result, boolean longPolling) {
    }

    private final MetricsSink.Family<MetricsSink.Histogram> family;
    private final Map<Key, MetricsSink.Histogram> handles = new ConcurrentHashMap<>();

    public RpcLatencyMetrics(MetricsSink sink) {
        this.family = Objects.requireNonNull(sink, "sink").histogram("rocketmq_rpc_latency",
                "Time from a request's dispatch to the end of its answer's write, in milliseconds", BUCKETS_MS,
                "protocol_type", "request_code", "response_code", "is_long_polling", "result");
    }

    @Override
    public void answered(int requestCode, int responseCode, Result result, boolean held, long elapsedNanos) {
        // A pull the broker held until messages came is RocketMQ's suspended (long-polling) request.
        Key key = new Key(requestCode, responseCode, result, held && requestCode == RequestCode.PULL_MESSAGE);
        handles.computeIfAbsent(key, k -> family.labels("remoting", requestCodeLabel(k.requestCode()),
                responseCodeLabel(k.responseCode()), Boolean.toString(k.longPolling()), k.result().label()))
                .observe(elapsedNanos / 1e6);
    }

    /**
     * A request code's label; every code without a name is {@code unknown}, not its number: the code is
     * the client's to choose, and one series per number would let any client grow the registry without bound.
     */
    static String requestCodeLabel(int code) {
        String name = RequestCode.name(code);
        return name == null ? UNKNOWN_CODE : name.toLowerCase(Locale.ROOT);
    }

    static String responseCodeLabel(int code) {
        String name = ResponseCode.nameOrNull(code);
        return name == null ? Integer.toString(code) : name.toLowerCase(Locale.ROOT);
    }
}
