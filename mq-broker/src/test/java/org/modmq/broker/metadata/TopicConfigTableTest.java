package org.modmq.broker.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.BrokerRole;
import org.modmq.broker.config.BrokerIdentityConfig;
import org.modmq.broker.config.TopicDefaultsConfig;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.JsonBodyException;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.TopicConfig;

class TopicConfigTableTest {

    private static final BrokerIdentityConfig IDENTITY = new BrokerIdentityConfig("DefaultCluster", "broker-a", 0,
            BrokerRole.ASYNC_MASTER, "127.0.0.1", "127.0.0.1", 10911, 10912, 6);
    private static final TopicDefaultsConfig AUTO = new TopicDefaultsConfig(true, true, 8);
    private final Clock clock = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void createsTheSystemTopicsAtFirstStart() {
        TopicConfigTable table = new TopicConfigTable(dir, clock, IDENTITY, AUTO);
        assertThat(table.get("TBW102")).hasValueSatisfying(t -> {
            assertThat(t.perm()).isEqualTo(7);
            assertThat(t.readQueueNums()).isEqualTo(8);
            assertThat(t.writeQueueNums()).isEqualTo(8);
        });
        assertThat(table.snapshot()).containsKeys("SELF_TEST_TOPIC", "DefaultCluster", "broker-a",
                "SCHEDULE_TOPIC_XXXX", "RMQ_SYS_TRANS_HALF_TOPIC", "RMQ_SYS_TRANS_OP_HALF_TOPIC", "OFFSET_MOVED_EVENT",
                "DefaultCluster_REPLY_TOPIC", "rmq_sys_wheel_timer");
        assertThat(table.get("SCHEDULE_TOPIC_XXXX").orElseThrow().queueCount()).isEqualTo(18);
        assertThat(table.get("broker-a").orElseThrow().perm()).isEqualTo(7);
        assertThat(Files.exists(dir.resolve("topics.json"))).isTrue();
    }

    @Test
    void hasNoTemplateTopicWhenAutoCreateIsOff() {
        TopicConfigTable table = new TopicConfigTable(dir, clock, IDENTITY, new TopicDefaultsConfig(false, true, 8));
        assertThat(table.get("TBW102")).isEmpty();
        assertThat(table.createFromTemplate("NewTopic", "TBW102", 4, 0)).isEmpty();
    }

    @Test
    void persistsChangesAndReloadsThem() throws IOException {
        TopicConfigTable table = new TopicConfigTable(dir, clock, IDENTITY, AUTO);
        DataVersion before = table.dataVersion();
        assertThat(table.upsert(new TopicConfig("TopicA", 4, 2, 6, "SINGLE_TAG", 0, true, null))).isTrue();
        assertThat(table.upsert(new TopicConfig("TopicA", 4, 2, 6, "SINGLE_TAG", 0, true, null))).isFalse();
        assertThat(table.dataVersion().counter()).isEqualTo(before.counter() + 1);

        JsonNode file = Json.mapper().readTree(dir.resolve("topics.json").toFile());
        assertThat(file.path("topicConfigTable").path("TopicA").toString()).isEqualTo(
                "{\"attributes\":{},\"order\":true,\"perm\":6,\"readQueueNums\":4,\"topicFilterType\":\"SINGLE_TAG\","
                        + "\"topicName\":\"TopicA\",\"topicSysFlag\":0,\"writeQueueNums\":2}");
        assertThat(file.path("dataVersion").path("counter").asLong()).isEqualTo(table.dataVersion().counter());

        TopicConfigTable reloaded = new TopicConfigTable(dir, clock, IDENTITY, AUTO);
        assertThat(reloaded.get("TopicA")).contains(table.get("TopicA").orElseThrow());
        assertThat(reloaded.dataVersion()).isEqualTo(table.dataVersion());
        assertThat(reloaded.delete("TopicA")).isTrue();
        assertThat(new TopicConfigTable(dir, clock, IDENTITY, AUTO).get("TopicA")).isEmpty();
    }

    @Test
    void autoCreatesFromATemplateWithInheritAndRetryTopicsWithOneQueue() {
        TopicConfigTable table = new TopicConfigTable(dir, clock, IDENTITY, AUTO);
        List<String> changed = new ArrayList<>();
        table.addListener((topic, version) -> changed.add(topic.topicName() + "@" + version.counter()));

        TopicConfig created = table.createFromTemplate("NewTopic", "TBW102", 4, 0).orElseThrow();
        assertThat(created.writeQueueNums()).isEqualTo(4);
        assertThat(created.perm()).isEqualTo(6);
        assertThat(table.createFromTemplate("Other", "TBW102", 100, 0).orElseThrow().writeQueueNums()).isEqualTo(8);
        assertThat(table.createFromTemplate("Other2", "SELF_TEST_TOPIC", 4, 0)).isEmpty();

        TopicConfig retry = table.retryTopicOf("cg", 1);
        assertThat(retry.topicName()).isEqualTo("%RETRY%cg");
        assertThat(retry.queueCount()).isEqualTo(1);
        assertThat(table.retryTopicOf("cg", 1)).isSameAs(retry);
        assertThat(changed).hasSize(3).allMatch(s -> !s.endsWith("@0"));
        assertThat(changed.get(0)).startsWith("NewTopic@");
    }

    @Test
    void ignoresAStaleTempFileLeftByACrash() throws IOException {
        TopicConfigTable table = new TopicConfigTable(dir, clock, IDENTITY, AUTO);
        table.upsert(TopicConfig.of("Kept", 2, 6));
        Files.writeString(dir.resolve("topics.json.tmp"), "{\"topicConfigTable\":{\"Half");
        TopicConfigTable reloaded = new TopicConfigTable(dir, clock, IDENTITY, AUTO);
        assertThat(reloaded.get("Kept")).isPresent();
        reloaded.upsert(TopicConfig.of("Next", 1, 6));
        assertThat(Files.exists(dir.resolve("topics.json.tmp"))).isFalse();
        assertThat(new TopicConfigTable(dir, clock, IDENTITY, AUTO).get("Next")).isPresent();
    }

    @Test
    void refusesToStartOnACorruptFileRatherThanLoseTopics() throws IOException {
        Files.writeString(dir.resolve("topics.json"), "{\"topicConfigTable\":{\"Half");
        assertThatThrownBy(() -> new TopicConfigTable(dir, clock, IDENTITY, AUTO))
                .isInstanceOf(JsonBodyException.class)
                .hasMessageContaining("topics.json");
    }

    @Test
    void validatesTopicNames() {
        assertThat(TopicValidator.problem("Topic_A-1%|x")).isEmpty();
        assertThat(TopicValidator.problem("")).isPresent();
        assertThat(TopicValidator.problem("a b")).isPresent();
        assertThat(TopicValidator.problem("x".repeat(128))).isPresent();
        assertThat(SystemTopics.isSystemTopic(IDENTITY, "TBW102")).isTrue();
        assertThat(SystemTopics.isSystemTopic(IDENTITY, "broker-a")).isTrue();
        assertThat(SystemTopics.isSystemTopic(IDENTITY, "rmq_sys_anything")).isTrue();
        assertThat(SystemTopics.isSystemTopic(IDENTITY, "TopicTest")).isFalse();
    }
}
