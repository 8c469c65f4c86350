package org.modmq.broker.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.body.DataVersion;

class SubscriptionGroupTableTest {

    private final Clock clock = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void autoCreatesGroupsWithRocketMqDefaultsAndReloadsThem() throws IOException {
        SubscriptionGroupTable table = new SubscriptionGroupTable(dir, clock, true);
        SubscriptionGroupConfig created = table.findOrCreate("cg").orElseThrow();
        assertThat(created).isEqualTo(SubscriptionGroupConfig.defaults("cg"));

        JsonNode file = Json.mapper().readTree(dir.resolve("subscriptionGroup.json").toFile());
        assertThat(file.path("subscriptionGroupTable").path("cg").toString()).isEqualTo("{\"attributes\":{},"
                + "\"brokerId\":0,\"consumeBroadcastEnable\":true,\"consumeEnable\":true,\"consumeFromMinEnable\":true,"
                + "\"consumeMessageOrderly\":false,\"consumeTimeoutMinute\":15,\"groupName\":\"cg\","
                + "\"groupRetryPolicy\":{\"type\":\"CUSTOMIZED\"},\"groupSysFlag\":0,"
                + "\"notifyConsumerIdsChangedEnable\":true,\"retryMaxTimes\":16,\"retryQueueNums\":1,"
                + "\"whichBrokerWhenConsumeSlowly\":1}");
        assertThat(file.has("forbiddenTable")).isTrue();

        SubscriptionGroupTable reloaded = new SubscriptionGroupTable(dir, clock, true);
        assertThat(reloaded.get("cg")).contains(created);
        assertThat(reloaded.dataVersion()).isEqualTo(table.dataVersion());
        assertThat(reloaded.delete("cg")).isTrue();
        assertThat(new SubscriptionGroupTable(dir, clock, false).get("cg")).isEmpty();
    }

    @Test
    void createsOnlySystemGroupsWhenAutoCreationIsOff() {
        SubscriptionGroupTable table = new SubscriptionGroupTable(dir, clock, false);
        assertThat(table.findOrCreate("cg")).isEmpty();
        assertThat(table.findOrCreate("TOOLS_CONSUMER")).isPresent();
    }

    @Test
    void neverAutoCreatesAGroupWhoseNameRocketMqRefuses() {
        SubscriptionGroupTable table = new SubscriptionGroupTable(dir, clock, true);
        DataVersion before = table.dataVersion();
        for (String illegal : new String[] {"% \n==a\u0002", "", " ", "a b", "g\u00e9", "g".repeat(249)}) {
            assertThat(table.findOrCreate(illegal)).as(illegal).isEmpty();
            assertThat(table.get(illegal)).isEmpty();
        }
        assertThat(table.findOrCreate(null)).isEmpty();
        assertThat(table.dataVersion()).isEqualTo(before);
        // %RETRY% + 248 characters is the longest legal retry topic (255).
        assertThat(table.findOrCreate("g".repeat(248))).isPresent();
        assertThat(table.findOrCreate("%a|b_c-9")).isPresent();
    }

    @Test
    void fillsPropertiesMissingFromAPartialConfigWithDefaults() {
        SubscriptionGroupConfig parsed = Json.decodeWithDefaults(
                "{\"groupName\":\"g2\",\"retryMaxTimes\":3,\"unknown\":1}".getBytes(StandardCharsets.UTF_8),
                SubscriptionGroupConfig.defaults("?"), SubscriptionGroupConfig.class);
        assertThat(parsed.groupName()).isEqualTo("g2");
        assertThat(parsed.retryMaxTimes()).isEqualTo(3);
        assertThat(parsed.consumeEnable()).isTrue();
        assertThat(parsed.notifyConsumerIdsChangedEnable()).isTrue();
        assertThat(parsed.retryQueueNums()).isEqualTo(1);
    }
}
