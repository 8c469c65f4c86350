package org.modmq.broker.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.modmq.broker.testing.FakeChannel;
import org.modmq.testkit.ManualClock;

class ConsumerGroupRegistryTest {

    private final ManualClock clock = new ManualClock(1_000_000);
    private final List<ConsumerGroupView> changes = new CopyOnWriteArrayList<>();
    private final ConsumerGroupRegistry registry = new ConsumerGroupRegistry(clock, changes::add);

    private static SubscriptionData sub(String topic, long version) {
        return new SubscriptionData(topic, "*", Set.of(), Set.of(), "TAG", version, false, null);
    }

    private static ConsumerData consumer(String model, SubscriptionData... subs) {
        return new ConsumerData("cg", "CONSUME_PASSIVELY", model, "CONSUME_FROM_LAST_OFFSET", Set.of(subs), false);
    }

    @Test
    void reportsNewMembersAndSubscriptionChangesOnly() {
        FakeChannel a = new FakeChannel("a");
        assertThat(registry.register(a, "c-a", "JAVA", 479, consumer("CLUSTERING", sub("T", 1)), false)).isTrue();
        assertThat(registry.register(a, "c-a", "JAVA", 479, consumer("CLUSTERING", sub("T", 1)), false)).isFalse();
        assertThat(registry.register(a, "c-a", "JAVA", 479, consumer("CLUSTERING", sub("T", 0)), false)).isFalse();
        assertThat(registry.register(a, "c-a", "JAVA", 479, consumer("CLUSTERING", sub("T", 2)), false)).isTrue();
        assertThat(registry.register(a, "c-a", "JAVA", 479,
                consumer("CLUSTERING", sub("T", 2), sub("U", 1)), false)).isTrue();
        assertThat(registry.register(a, "c-a", "JAVA", 479, consumer("CLUSTERING", sub("U", 1)), false)).isTrue();
        assertThat(registry.group("cg").orElseThrow().subscriptions()).containsOnlyKeys("U");
        assertThat(registry.register(a, "c-a", "JAVA", 479, consumer("CLUSTERING"), true)).isFalse();
        assertThat(registry.group("cg").orElseThrow().subscriptions()).containsOnlyKeys("U");
        assertThat(changes).hasSize(4);

        FakeChannel b = new FakeChannel("b");
        registry.register(b, "c-b", "JAVA", 479, consumer("CLUSTERING", sub("U", 1)), false);
        assertThat(changes).hasSize(5);
        assertThat(changes.get(4).clientIds()).containsExactly("c-a", "c-b");

        registry.channelClosed(a);
        assertThat(changes).hasSize(6);
        assertThat(changes.get(5).clientIds()).containsExactly("c-b");
        registry.unregister("cg", b);
        assertThat(registry.group("cg")).isEmpty();
        assertThat(changes).hasSize(7);
    }

    @Test
    void expiresSilentChannelsAfterTheTimeout() {
        FakeChannel a = new FakeChannel("a");
        FakeChannel b = new FakeChannel("b");
        registry.register(a, "c-a", "JAVA", 479, consumer("CLUSTERING", sub("T", 1)), false);
        clock.advance(Duration.ofSeconds(100));
        registry.register(b, "c-b", "JAVA", 479, consumer("CLUSTERING", sub("T", 1)), false);
        clock.advance(Duration.ofSeconds(30));
        assertThat(registry.expire(120_000)).isEqualTo(1);
        assertThat(registry.group("cg").orElseThrow().clientIds()).containsExactly("c-b");
        assertThat(a.isActive()).isFalse();
        assertThat(b.isActive()).isTrue();
        assertThat(registry.expire(120_000)).isZero();
    }

    @Test
    void neverReportsBroadcastingGroups() {
        registry.register(new FakeChannel("a"), "c-a", "JAVA", 479, consumer("BROADCASTING", sub("T", 1)), false);
        assertThat(changes).isEmpty();
        assertThat(registry.group("cg")).isPresent();
    }

    @Test
    void notifierSendsOnewayNotifyToEveryActiveMember() {
        FakeChannel a = new FakeChannel("a");
        FakeChannel b = new FakeChannel("b");
        ConsumerGroupRegistry notifying = new ConsumerGroupRegistry(clock, new ConsumerIdsChangedNotifier(g -> true));
        notifying.register(a, "c-a", "JAVA", 479, consumer("CLUSTERING", sub("T", 1)), false);
        notifying.register(b, "c-b", "JAVA", 479, consumer("CLUSTERING", sub("T", 1)), false);
        assertThat(a.oneways()).hasSize(2);
        assertThat(b.oneways()).hasSize(1);
        assertThat(b.oneways().get(0).code()).isEqualTo(40);
        assertThat(b.oneways().get(0).extField("consumerGroup")).isEqualTo("cg");

        FakeChannel c = new FakeChannel("c");
        new ConsumerGroupRegistry(clock, new ConsumerIdsChangedNotifier(g -> false))
                .register(c, "c-c", "JAVA", 479, consumer("CLUSTERING", sub("T", 1)), false);
        assertThat(c.oneways()).isEmpty();
    }
}
