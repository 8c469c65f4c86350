package org.modmq.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.MetricsSink;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.process.Await;

/** RocketMQ's controller figures of a one-peer group driven by a test broker: role, requests, elections, brokers. */
@Tag("integration")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ControllerMetricsTest {

    @TempDir
    Path root;

    @Test
    void reportsRoleRequestsElectionsAndActiveBrokers() {
        Sink sink = new Sink();
        try (ControllerGroup group = new ControllerGroup(root, 1)) {
            ControllerServer leader = group.awaitLeader();
            leader.reportTo(sink);
            String self = leader.config().selfId();
            String raftGroup = leader.config().group();
            assertThat(sink.read("role")).containsExactly(List.of("3.0", raftGroup, self));
            try (TestBroker broker = new TestBroker("TestCluster", "broker-a", 1, group.addressList())) {
                broker.join(leader.address());
                broker.startHeartbeats();
                TestBroker.expectSuccess(broker.elect(leader.address()));
                assertThat(broker.elect(leader.address()).code()).isEqualTo(ResponseCode.CONTROLLER_MASTER_STILL_EXIST);

                Await.until("both elections counted", ControllerGroup.WAIT, () ->
                        sink.count("election_total", raftGroup, self, "TestCluster", "broker-a", "new_master_elected") == 1
                        && sink.count("election_total", raftGroup, self, "TestCluster", "broker-a",
                                "keep_current_master") == 1);
                Await.until("the requests counted", ControllerGroup.WAIT, () -> sink.count("request_total", raftGroup,
                        self, "CONTROLLER_ELECT_MASTER", "success") == 2);
                assertThat(sink.count("request_total", raftGroup, self, "CONTROLLER_REGISTER_BROKER", "success"))
                        .isPositive();
                assertThat(sink.count("request_latency", raftGroup, self, "CONTROLLER_ELECT_MASTER")).isEqualTo(2);
                Await.until("the broker counted as active", ControllerGroup.WAIT, () -> sink.read("active_broker_num")
                        .contains(List.of("1.0", raftGroup, self, "TestCluster", "broker-a")));
            }
        }
    }

    @Test
    void requestTypesAreRocketMqsNames() {
        assertThat(ControllerMetrics.requestType(1002)).isEqualTo("CONTROLLER_ELECT_MASTER");
        assertThat(ControllerMetrics.requestType(1007)).isEqualTo("CONTROLLER_GET_BROKER_EPOCH_CACHE");
        assertThat(ControllerMetrics.requestType(904)).isEqualTo("CONTROLLER_BROKER_HEARTBEAT");
        assertThat(ControllerMetrics.requestType(1011)).isEqualTo("CONTROLLER_CLEAN_BROKER_DATA");
        assertThat(ControllerMetrics.requestType(105)).isNull();
    }

    /** Counts per family and label values; callbacks are read on demand. Thread-safe. */
    private static final class Sink implements MetricsSink {

        private final Map<List<String>, Double> counts = new ConcurrentHashMap<>();
        private final Map<String, Consumer<Samples>> callbacks = new ConcurrentHashMap<>();

        double count(String name, String... labels) {
            List<String> key = new ArrayList<>();
            key.add(name);
            key.addAll(Arrays.asList(labels));
            return counts.getOrDefault(key, 0.0);
        }

        /** The callback's samples, each as [value, labels...]. */
        List<List<String>> read(String name) {
            List<List<String>> samples = new ArrayList<>();
            callbacks.get(name).accept((value, labels) -> {
                List<String> sample = new ArrayList<>();
                sample.add(Double.toString(value));
                sample.addAll(Arrays.asList(labels));
                samples.add(sample);
            });
            return samples;
        }

        private Map<List<String>, Double> counts() {
            return counts;
        }

        private static List<String> key(String name, String[] values) {
            List<String> key = new ArrayList<>();
            key.add(name);
            key.addAll(Arrays.asList(values));
            return key;
        }

        @Override
        public Family<Counter> counter(String name, String help, String... labelNames) {
            return values -> amount -> counts().merge(key(name, values), (double) amount, Double::sum);
        }

        @Override
        public Family<Gauge> gauge(String name, String help, String... labelNames) {
            return values -> value -> counts().put(key(name, values), value);
        }

        @Override
        public Family<Histogram> histogram(String name, String help, double[] upperBounds, String... labelNames) {
            return values -> value -> counts().merge(key(name, values), 1.0, Double::sum);
        }

        @Override
        public void gaugeCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
            callbacks.put(name, callback);
        }

        @Override
        public void counterCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
            callbacks.put(name, callback);
        }
    }
}
