package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.ha.push.config.PushConfig;

/** Provider discovery, the module descriptor and configuration parsing. */
class PushProviderTest {

    @Test
    void serviceLoaderFindsPushByName() {
        assertThat(ProviderRegistry.load(ReplicationStrategyProvider.class).get("push"))
                .isInstanceOf(PushReplicationStrategyProvider.class);
    }

    @Test
    void moduleExportsNothingAndProvidesWhatServicesFileLists() throws IOException {
        ModuleDescriptor descriptor = PushReplicationStrategyProvider.class.getModule().getDescriptor();
        assertThat(descriptor).isNotNull();
        assertThat(descriptor.name()).isEqualTo("org.modmq.ha.push");
        assertThat(descriptor.exports()).isEmpty();
        String spi = ReplicationStrategyProvider.class.getName();
        Set<String> provided = descriptor.provides().stream().filter(p -> p.service().equals(spi))
                .flatMap(p -> p.providers().stream()).collect(Collectors.toSet());
        try (InputStream in = PushReplicationStrategyProvider.class.getModule()
                .getResourceAsStream("META-INF/services/" + spi)) {
            assertThat(in).isNotNull();
            Set<String> listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).collect(Collectors.toSet());
            assertThat(listed).isEqualTo(provided).containsExactly(PushReplicationStrategyProvider.class.getName());
        }
    }

    @Test
    void defaultsFollowListenPortAndRocketMqNames() {
        PushConfig config = PushConfig.from(ConfigValues.of(Map.of("listenPort", "20911", "brokerIP1", "127.0.0.1")));
        assertThat(config.listenPort()).isEqualTo(20912);
        assertThat(config.bindHost()).isEqualTo("127.0.0.1");
        assertThat(config.windowBytes()).isEqualTo(4 * 1024 * 1024);
        assertThat(config.heartbeatInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.silenceTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(PushConfig.from(ConfigValues.empty()).listenPort()).isEqualTo(10912);
        assertThat(PushConfig.from(ConfigValues.of(Map.of("haListenPort", "0"))).listenPort()).isZero();
    }

    @Test
    void rejectsBadValuesNamingTheKey() {
        assertThatThrownBy(() -> PushConfig.from(ConfigValues.of(Map.of("haPushWindowBytes", "10"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("haPushWindowBytes");
        assertThatThrownBy(() -> PushConfig.parseAddress("nohost"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("nohost");
        assertThatThrownBy(() -> PushConfig.parseAddress("127.0.0.1:0"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("port");
        assertThatThrownBy(() -> PushConfig.from(ConfigValues.of(Map.of("haSendHeartbeatInterval", "20000"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("haHousekeepingInterval");
        assertThatThrownBy(() -> PushConfig.from(ConfigValues.of(Map.of("haListenPort", "70000"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("haListenPort");
    }
}
