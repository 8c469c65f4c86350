package org.modmq.broker.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.modmq.broker.testing.FakeChannel;
import org.modmq.testkit.ManualClock;

class ProducerRegistryTest {

    private final ManualClock clock = new ManualClock(5_000_000);
    private final ProducerRegistry registry = new ProducerRegistry(clock);

    @Test
    void tracksProducerConnectionsUntilTheyCloseOrFallSilent() {
        FakeChannel a = new FakeChannel("a");
        FakeChannel b = new FakeChannel("b");
        registry.register(a, "p-a", "JAVA", 479, "pg");
        clock.advance(Duration.ofSeconds(60));
        registry.register(b, "p-b", "GO", 400, "pg");
        registry.register(b, "p-b", "GO", 400, "CLIENT_INNER_PRODUCER");
        assertThat(registry.connections("pg")).extracting(ClientChannelInfo::clientId).containsExactly("p-a", "p-b");
        assertThat(registry.findByClientId("p-b")).hasValueSatisfying(i -> assertThat(i.language()).isEqualTo("GO"));

        clock.advance(Duration.ofSeconds(70));
        assertThat(registry.expire(120_000)).isEqualTo(1);
        assertThat(a.isActive()).isFalse();
        assertThat(registry.connections("pg")).extracting(ClientChannelInfo::clientId).containsExactly("p-b");

        registry.channelClosed(b);
        assertThat(registry.connections("pg")).isEmpty();
        assertThat(registry.connections("CLIENT_INNER_PRODUCER")).isEmpty();
        assertThat(registry.findByClientId("p-b")).isEmpty();
    }
}
