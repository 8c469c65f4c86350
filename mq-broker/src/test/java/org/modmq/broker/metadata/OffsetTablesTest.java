package org.modmq.broker.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.remoting.protocol.Json;

class OffsetTablesTest {

    private final Clock clock = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void consumerOffsetsRoundTripThroughTheFile() throws IOException {
        ConsumerOffsetTable table = new ConsumerOffsetTable(dir, clock);
        table.commit("cg", "TopicTest", 0, 5);
        table.commit("cg", "TopicTest", 1, 7);
        table.commit("other", "TopicTest", 0, 1);
        table.commit("cg", "TopicB", 3, 9);
        assertThat(table.query("cg", "TopicTest", 1)).hasValue(7);
        assertThat(table.query("cg", "TopicTest", 2)).isEmpty();
        assertThat(table.groupsOf("TopicTest")).containsExactly("cg", "other");
        assertThat(table.topicsOf("cg")).containsExactly("TopicB", "TopicTest");
        table.persist();

        JsonNode file = Json.mapper().readTree(dir.resolve("consumerOffset.json").toFile());
        assertThat(file.path("offsetTable").path("TopicTest@cg").toString()).isEqualTo("{\"0\":5,\"1\":7}");
        assertThat(file.path("dataVersion").path("counter").asLong()).isEqualTo(1);

        ConsumerOffsetTable reloaded = new ConsumerOffsetTable(dir, clock);
        assertThat(reloaded.offsetsOf("cg", "TopicTest")).isEqualTo(Map.of(0, 5L, 1, 7L));
        assertThat(reloaded.wrapper().dataVersion()).isEqualTo(table.wrapper().dataVersion());
        reloaded.removeTopic("TopicTest");
        reloaded.removeGroup("cg");
        assertThat(reloaded.query("other", "TopicTest", 0)).isEmpty();
        assertThat(reloaded.query("cg", "TopicB", 3)).isEmpty();
    }

    @Test
    void loadsAStockBrokersFileWithUnquotedIntegerKeys() throws IOException {
        Files.writeString(dir.resolve("consumerOffset.json"),
                "{\"offsetTable\":{\"TopicTest@cg\":{0:5,1:7}},\"dataVersion\":{\"counter\":3,\"stateVersion\":0,"
                        + "\"timestamp\":1}}");
        ConsumerOffsetTable table = new ConsumerOffsetTable(dir, clock);
        assertThat(table.query("cg", "TopicTest", 1)).hasValue(7);
        assertThat(table.wrapper().dataVersion().counter()).isEqualTo(3);
    }

    @Test
    void persistWritesOnlyWhenDirty() {
        ConsumerOffsetTable table = new ConsumerOffsetTable(dir, clock);
        table.persist();
        assertThat(Files.exists(dir.resolve("consumerOffset.json"))).isFalse();
        table.commit("g", "t", 0, 1);
        table.persist();
        long counter = table.wrapper().dataVersion().counter();
        table.persist();
        assertThat(table.wrapper().dataVersion().counter()).isEqualTo(counter);
    }

    @Test
    void delayOffsetsRoundTripThroughTheFile() throws IOException {
        DelayOffsetTable table = new DelayOffsetTable(dir, clock);
        table.update(3, 1);
        table.update(18, 40);
        table.persist();
        JsonNode file = Json.mapper().readTree(dir.resolve("delayOffset.json").toFile());
        assertThat(file.path("offsetTable").toString()).isEqualTo("{\"3\":1,\"18\":40}");
        DelayOffsetTable reloaded = new DelayOffsetTable(dir, clock);
        assertThat(reloaded.get(3)).hasValue(1);
        assertThat(reloaded.get(18)).hasValue(40);
        assertThat(reloaded.get(2)).isEmpty();
    }
}
