package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.BrokerRole;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.replication.ReplicationContext;
import org.modmq.api.spi.replication.ReplicationStrategy;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.store.MessageStore;
import org.modmq.testkit.NettyLeakCheck;

@ExtendWith(NettyLeakCheck.class)
class ProviderLoadingTest {

    @TempDir
    java.nio.file.Path dir;

    @Test
    void registryFindsPullAndCreatesAStrategy() {
        ReplicationStrategyProvider provider = ProviderRegistry.load(ReplicationStrategyProvider.class).get("pull");
        assertThat(provider).isInstanceOf(PullReplicationStrategyProvider.class);
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (MessageStore store = TestStores.open(dir, scheduler);
             ReplicationStrategy strategy = provider.create(TestStores.haValues(),
                     new ReplicationContext(TestStores.plugin(dir, scheduler), BrokerRole.SLAVE,
                             store.replicatedLog()))) {
            assertThat(strategy.name()).isEqualTo("pull");
            assertThat(strategy.replicas()).isEmpty();
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void moduleExportsNothingAndProvidesWhatTheServicesFileLists() throws IOException {
        Module module = PullReplicationStrategyProvider.class.getModule();
        assertThat(module.isNamed()).isTrue();
        ModuleDescriptor descriptor = module.getDescriptor();
        assertThat(descriptor.name()).isEqualTo("org.modmq.ha.pull");
        assertThat(descriptor.isAutomatic()).isFalse();
        assertThat(descriptor.exports()).isEmpty();
        Set<String> provided = descriptor.provides().stream()
                .filter(p -> p.service().equals(ReplicationStrategyProvider.class.getName()))
                .flatMap(p -> p.providers().stream()).collect(Collectors.toSet());
        try (InputStream in = module.getResourceAsStream(
                "META-INF/services/" + ReplicationStrategyProvider.class.getName())) {
            assertThat(in).isNotNull();
            Set<String> listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#")).collect(Collectors.toSet());
            assertThat(provided).isEqualTo(listed).containsExactly(PullReplicationStrategyProvider.class.getName());
        }
    }
}
