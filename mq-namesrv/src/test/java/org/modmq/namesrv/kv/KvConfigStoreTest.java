package org.modmq.namesrv.kv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KvConfigStoreTest {

    @TempDir
    Path dir;

    @Test
    void persistsAcrossInstancesInTheStockFileShape() throws Exception {
        Path file = dir.resolve("namesrv").resolve("kvConfig.json");
        KvConfigStore store = new KvConfigStore(file);
        store.put("ORDER_TOPIC_CONFIG", "TopicA", "broker-a:4");
        store.put("ns", "k", "v");
        store.delete("ns", "k");

        assertThat(Files.readString(file)).isEqualTo("{\"configTable\":{\"ORDER_TOPIC_CONFIG\":{\"TopicA\":\"broker-a:4\"}}}");
        KvConfigStore reopened = new KvConfigStore(file);
        assertThat(reopened.get("ORDER_TOPIC_CONFIG", "TopicA")).contains("broker-a:4");
        assertThat(reopened.namespace("ns")).isEmpty();
        assertThat(reopened.namespace("ORDER_TOPIC_CONFIG")).contains(Map.of("TopicA", "broker-a:4"));
    }

    @Test
    void memoryOnlyStoreWritesNothing() throws Exception {
        KvConfigStore store = new KvConfigStore(null);
        store.put("ns", "k", "v");
        assertThat(store.get("ns", "k")).contains("v");
        assertThat(store.get("ns", "other")).isEmpty();
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
