package org.modmq.remoting.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.modmq.api.spi.MetricsSink;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.process.Await;

/** The server tells its {@link RpcObserver} of every answer; {@link RpcLatencyMetrics} labels them as RocketMQ does. */
@Tag("integration")
@Timeout(30)
class RpcObserverTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    private record Seen(int requestCode, int responseCode, RpcObserver.Result result, boolean held, long nanos) {
    }

    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private ThreadPoolExecutor executor;
    private RemotingServer server;
    private RemotingClient client;
    private String address;
    /** What the pull processor waits for before it answers. */
    private volatile CompletableFuture<Void> heldPull;

    @BeforeEach
    void start() {
        executor = ProcessorExecutors.bounded("test-processor", 2, 16);
        server = new RemotingServer(RemotingServerConfig.of("127.0.0.1", 0).withIoThreads(1)
                .withShutdownGrace(Duration.ofSeconds(2)));
        server.setRpcObserver((request, response, result, held, nanos) ->
                seen.add(new Seen(request, response, result, held, nanos)));
        server.registerProcessor(RequestCode.GET_ROUTEINFO_BY_TOPIC, RequestProcessor.sync((channel, request) ->
                RemotingCommand.responseTo(request, ResponseCode.TOPIC_NOT_EXIST, "no route")), executor);
        server.registerProcessor(RequestCode.PULL_MESSAGE, (channel, request) -> {
            CompletableFuture<Void> wake = new CompletableFuture<>();
            heldPull = wake;
            return wake.thenApply(ignored -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null));
        }, executor);
        server.start();
        client = new RemotingClient(RemotingClientConfig.defaults());
        address = "127.0.0.1:" + server.port();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        executor.shutdownNow();
    }

    @Test
    void everyAnswerIsObservedWithItsCodesAndWhetherItWasHeld() throws Exception {
        client.invoke(address, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC), WAIT).get(5, TimeUnit.SECONDS);
        client.invoke(address, RemotingCommand.request(9_999), WAIT).get(5, TimeUnit.SECONDS);
        Await.until("two answers observed", WAIT, () -> seen.size() == 2);
        assertThat(seen).extracting(Seen::requestCode, Seen::responseCode, Seen::result, Seen::held)
                .containsExactlyInAnyOrder(
                        Tuple.tuple(RequestCode.GET_ROUTEINFO_BY_TOPIC,
                                ResponseCode.TOPIC_NOT_EXIST, RpcObserver.Result.SUCCESS, false),
                        Tuple.tuple(9_999, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                                RpcObserver.Result.SUCCESS, false));

        CompletableFuture<RemotingCommand> pull = client.invoke(address, RemotingCommand.request(RequestCode.PULL_MESSAGE),
                WAIT);
        Await.until("the pull held", WAIT, () -> heldPull != null);
        Thread.sleep(20);
        assertThat(seen).hasSize(2);
        heldPull.complete(null);
        pull.get(5, TimeUnit.SECONDS);
        Await.until("the pull observed", WAIT, () -> seen.size() == 3);
        Seen held = seen.get(2);
        assertThat(held.requestCode()).isEqualTo(RequestCode.PULL_MESSAGE);
        assertThat(held.held()).isTrue();
        assertThat(held.nanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
    }

    @Test
    void latencyMetricsLabelCodesByTheirLowerCaseNames() {
        Map<List<String>, Integer> observed = new ConcurrentHashMap<>();
        RpcLatencyMetrics metrics = new RpcLatencyMetrics(new HistogramOnlySink(observed));
        metrics.answered(RequestCode.SEND_MESSAGE_V2, ResponseCode.SUCCESS, RpcObserver.Result.SUCCESS, true, 2_000_000);
        metrics.answered(RequestCode.PULL_MESSAGE, ResponseCode.PULL_NOT_FOUND, RpcObserver.Result.SUCCESS, true, 1);
        metrics.answered(4_321, 777, RpcObserver.Result.WRITE_CHANNEL_FAILED, false, 1);
        metrics.answered(4_322, 777, RpcObserver.Result.WRITE_CHANNEL_FAILED, false, 1);
        metrics.answered(RequestCode.HEART_BEAT, ResponseCode.SUCCESS, RpcObserver.Result.ONEWAY, false, 1);
        assertThat(observed).containsOnlyKeys(
                List.of("remoting", "send_message_v2", "success", "false", "success"),
                List.of("remoting", "pull_message", "pull_not_found", "true", "success"),
                List.of("remoting", "unknown", "777", "false", "write_channel_failed"),
                List.of("remoting", "heart_beat", "success", "false", "oneway"));
    }

    /** Records the label values of every histogram observation. */
    private record HistogramOnlySink(Map<List<String>, Integer> observed) implements MetricsSink {

        @Override
        public Family<Counter> counter(String name, String help, String... labelNames) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Family<Gauge> gauge(String name, String help, String... labelNames) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Family<Histogram> histogram(String name, String help, double[] upperBounds, String... labelNames) {
            assertThat(name).isEqualTo("rocketmq_rpc_latency");
            assertThat(labelNames).containsExactly("protocol_type", "request_code", "response_code",
                    "is_long_polling", "result");
            return values -> value -> observed.merge(List.of(values), 1, Integer::sum);
        }

        @Override
        public void gaugeCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void counterCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
            throw new UnsupportedOperationException();
        }
    }
}
