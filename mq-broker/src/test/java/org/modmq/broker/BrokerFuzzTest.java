package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.broker.BrokerClient.props;
import static org.modmq.broker.BrokerClient.sendV2;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.data.MessageStoreBinding;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.metadata.TopicValidator;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.broker.testing.TestConfigs;
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
 * Fuzzes the broker's request processors over a raw socket (seeded, bounded by tries and time;
 * {@code -Dmodmq.fuzz.seed=<n>|random} picks the seed): every code the broker serves and unknown ones,
 * send v1/v2/batch, pull, query, admin and broker-to-broker codes with missing and malformed header
 * fields, spoiled bodies and spoiled frames. Every request is answered (or its connection closed for a
 * broken frame), the broker keeps answering, a refused request leaves the CommitLog's end and the topic
 * table as they were, and nothing leaks. (Subscription groups are not compared: as in RocketMQ, a pull or
 * send-back auto-creates its group before the rest of the request is judged.) The broker runs without
 * background writers (delay levels of an hour, no timer wheel, no transaction check-backs), so that any
 * change of the CommitLog comes from the request just answered. No topic or group whose name RocketMQ
 * refuses may appear either, whatever the answer.
 */
@Tag("integration")
@Timeout(90)
@ExtendWith(NettyLeakCheck.class)
class BrokerFuzzTest {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerFuzzTest.class);

    @TempDir
    Path dir;

    private BrokerServer broker;
    private RemotingClient remoting;
    private volatile MessageStoreBinding binding;

    @AfterEach
    void stop() {
        if (remoting != null) {
            remoting.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void answersEveryRequestKeepsAnsweringAndStoresNothingForARefusedOne() {
        broker = new BrokerServer(TestConfigs.broker(dir, "mappedFileSizeCommitLog", "4194304",
                "mappedFileSizeConsumeQueue", "60000", "messageDelayLevel", "1h 1h 1h 1h", "timerWheelEnable", "false",
                "transactionCheckInterval", "3600000"), Clock.systemUTC(), runtime -> {
                    binding = MessageStoreBinding.open(runtime, PluginSelection.discover());
                    return binding;
                }).start();
        remoting = new RemotingClient(RemotingClientConfig.defaults());
        BrokerClient client = new BrokerClient(remoting, broker.brokerAddr());
        List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            offsets.add(binding.store().getCommitLogMaxOffset());
            RemotingCommand sent = client.invoke(sendV2("FuzzTopic", i % 2, props("TAGS", "TagA", "KEYS", "k" + i),
                    ("seed " + i).getBytes(StandardCharsets.UTF_8)));
            assertThat(sent.code()).isEqualTo(ResponseCode.SUCCESS);
        }
        FuzzWorld world = FuzzWorld.defaults().withOffsets(offsets);
        BrokerMetadata metadata = broker.runtime().metadata();
        FuzzTarget target = new FuzzTarget("127.0.0.1", broker.port(), new RequestGenerator(RequestCatalog.BROKER, world),
                opaque -> FuzzRequest.of(RequestCode.GET_BROKER_RUNTIME_INFO, opaque, Map.of(), new byte[0]),
                () -> List.of(binding.store().getCommitLogMaxOffset(), metadata.topics().snapshot()),
                () -> illegalNames(metadata), false, BrokerFuzzTest::jsonReply);

        FuzzBudget budget = new FuzzBudget(Trials.tries(6_000), Trials.time(Duration.ofSeconds(6)), Duration.ofSeconds(10));
        FuzzReport report = FuzzRun.run(target, budget, Trials.seed());
        LOG.info("fuzz run against {}:\n{}", target.address(), report.summary());

        assertThat(report.failures()).as(report.summary()).isEmpty();
        assertThat(report.storedChecks()).isPositive();
        assertThat(client.invoke(RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO)).code())
                .isEqualTo(ResponseCode.SUCCESS);
    }

    /**
     * Topics and groups no request should have created: names with characters RocketMQ refuses, groups
     * longer than 255, topics longer than 127 unless they are a legal group's retry or dead-letter topic.
     */
    private static Set<String> illegalNames(BrokerMetadata metadata) {
        Set<String> illegal = new TreeSet<>();
        for (String topic : metadata.topics().snapshot().keySet()) {
            String group = null;
            for (String prefix : List.of(TopicValidator.RETRY_PREFIX, TopicValidator.DLQ_PREFIX)) {
                group = group == null && topic.startsWith(prefix) ? topic.substring(prefix.length()) : group;
            }
            if (group != null ? TopicValidator.autoCreatedGroupProblem(group).isPresent() : TopicValidator.problem(topic).isPresent()) {
                illegal.add("topic " + topic);
            }
        }
        metadata.subscriptionGroups().wrapper().subscriptionGroupTable().keySet().stream()
                .filter(group -> TopicValidator.autoCreatedGroupProblem(group).isPresent())
                .forEach(group -> illegal.add("group " + group));
        return illegal;
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
