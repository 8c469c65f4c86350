package org.modmq.namesrv;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.fuzz.FuzzBudget;
import org.modmq.fuzz.FuzzReport;
import org.modmq.fuzz.FuzzRequest;
import org.modmq.fuzz.FuzzRun;
import org.modmq.fuzz.FuzzTarget;
import org.modmq.fuzz.FuzzWorld;
import org.modmq.fuzz.Reply;
import org.modmq.fuzz.RequestCatalog;
import org.modmq.fuzz.RequestGenerator;
import org.modmq.fuzz.Trials;
import org.modmq.namesrv.body.ClusterInfo;
import org.modmq.namesrv.body.TopicList;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.NettyLeakCheck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fuzzes the name server's request processors over a raw socket (seeded, bounded by tries and time;
 * {@code -Dmodmq.fuzz.seed=<n>|random} picks the seed): known and unknown codes, missing and malformed
 * header fields, spoiled bodies and frames. Every request is answered (or the connection closed for a
 * broken frame), the server keeps answering, a refused request changes neither the cluster nor the
 * topic list, and nothing leaks.
 */
@Tag("integration")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakCheck.class)
class NamesrvFuzzTest {

    private static final Logger LOG = LoggerFactory.getLogger(NamesrvFuzzTest.class);

    private NamesrvServer namesrv;
    private RemotingClient registrar;
    private RemotingClient observer;

    @BeforeEach
    void start() throws Exception {
        namesrv = new NamesrvServer(NamesrvConfig.parse(Map.of("listenPort", "0"), warning -> { })).start();
        registrar = new RemotingClient(RemotingClientConfig.defaults());
        observer = new RemotingClient(RemotingClientConfig.defaults());
        RemotingCommand registered = call(registrar, NamesrvServerTest.registration(NamesrvServerTest.MASTER, 0,
                NamesrvServerTest.fullBody(5)));
        assertThat(registered.code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @AfterEach
    void stop() {
        if (observer != null) {
            observer.close();
        }
        if (registrar != null) {
            registrar.close();
        }
        if (namesrv != null) {
            namesrv.close();
        }
    }

    @Test
    void answersEveryRequestKeepsAnsweringAndStoresNothingForARefusedOne() {
        FuzzWorld world = new FuzzWorld(List.of("TopicA", "TBW102", "DefaultCluster", "FuzzTopic", "%RETRY%g"),
                List.of("fuzz-group"), List.of("broker-a", "fuzz-broker"), List.of("DefaultCluster", "fuzz-cluster"),
                List.of(0L), FuzzWorld.NAMESRV_CONFIG_KEYS);
        FuzzTarget target = new FuzzTarget("127.0.0.1", namesrv.port(),
                new RequestGenerator(RequestCatalog.NAMESRV, world),
                opaque -> FuzzRequest.of(RequestCode.GET_BROKER_CLUSTER_INFO, opaque, Map.of(), new byte[0]),
                this::routes, Set::of, true, NamesrvFuzzTest::jsonReply);
        FuzzBudget budget = new FuzzBudget(Trials.tries(4_000), Trials.time(Duration.ofSeconds(3)), Duration.ofSeconds(10));
        FuzzReport report = FuzzRun.run(target, budget, Trials.seed());
        LOG.info("fuzz run against {}:\n{}", target.address(), report.summary());
        assertThat(report.failures()).as(report.summary()).isEmpty();
        assertThat(report.trials()).isPositive();
        assertThat(report.storedChecks()).isPositive();
    }

    /** What the name server holds: brokers by cluster, and the topic list (when it serves it). */
    private Object routes() {
        RemotingCommand cluster = call(observer, RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO));
        RemotingCommand topics = call(observer, RemotingCommand.request(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER));
        // A fuzzed UPDATE_NAMESRV_CONFIG may have switched the topic list off (enableAllTopicList=false).
        return List.of(Json.decode(cluster.body(), ClusterInfo.class), topics.code() != ResponseCode.SUCCESS
                ? "topic list refused with code " + topics.code() : Json.decode(topics.body(), TopicList.class)
                .topicList());
    }

    private RemotingCommand call(RemotingClient client, RemotingCommand request) {
        try {
            return client.invoke(namesrv.address(), request, Duration.ofSeconds(15)).get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("name server did not answer " + request, e);
        }
    }

    static Reply jsonReply(byte[] header, byte[] body) {
        try {
            JsonNode json = Json.mapper().readTree(header);
            return new Reply(json.path("code").asInt(), json.path("opaque").asInt(), json.path("flag").asInt(),
                    json.path("remark").isTextual() ? json.path("remark").asText() : null, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
