package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.modmq.api.spi.MetricsSink;
import org.modmq.api.spi.replication.ReplicaLagGauges;
import org.modmq.api.spi.replication.ReplicaLink;
import org.modmq.testkit.ManualClock;

/** The pull strategy's replica-lag figures, read through a sink that keeps the callbacks. */
class ReplicaLagGaugesTest {

    /** Keeps the gauge callbacks; the other families are not used here. */
    private static final class CallbackSink implements MetricsSink {
        final Map<String, Consumer<Samples>> callbacks = new ConcurrentHashMap<>();

        @Override
        public Family<Counter> counter(String name, String help, String... labelNames) {
            return MetricsSink.NOOP.counter(name, help, labelNames);
        }

        @Override
        public Family<Gauge> gauge(String name, String help, String... labelNames) {
            return MetricsSink.NOOP.gauge(name, help, labelNames);
        }

        @Override
        public Family<Histogram> histogram(String name, String help, double[] bounds, String... labelNames) {
            return MetricsSink.NOOP.histogram(name, help, bounds, labelNames);
        }

        @Override
        public void gaugeCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
            callbacks.put(name, callback);
        }

        @Override
        public void counterCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
            callbacks.put(name, callback);
        }

        List<Double> values(String name) {
            List<Double> values = new ArrayList<>();
            callbacks.get(name).accept((value, labels) -> values.add(value));
            return values;
        }
    }

    @Test
    void reportsBytesAndTimeBehindTheLogEndPerConnectedReplica() {
        ManualClock clock = new ManualClock(1_000_000);
        MemoryLog log = MemoryLog.holding(4096, 0, 1000);
        RecordingProgress store = new RecordingProgress();
        CallbackSink sink = new CallbackSink();
        ReplicaLagGauges gauges = new ReplicaLagGauges(store, log, clock, sink, PullReplicationStrategyProvider.NAME);
        ReplicaLink replica = new ReplicaLink("127.0.0.1:40000", ReplicaLink.UNKNOWN_ID);

        gauges.acknowledged(replica, 1000);
        assertThat(sink.values("modmq_replica_lag_bytes")).containsExactly(0.0);
        assertThat(sink.values("modmq_replica_lag_seconds")).containsExactly(0.0);

        log.append(1000, io.netty.buffer.Unpooled.wrappedBuffer(new byte[500]));
        clock.advance(Duration.ofSeconds(3));
        gauges.acknowledged(replica, 1200);
        assertThat(sink.values("modmq_replica_lag_bytes")).containsExactly(300.0);
        assertThat(sink.values("modmq_replica_lag_seconds")).containsExactly(3.0);
        assertThat(store.events()).hasSize(2);

        gauges.disconnected(replica);
        assertThat(sink.values("modmq_replica_lag_bytes")).isEmpty();
    }
}
