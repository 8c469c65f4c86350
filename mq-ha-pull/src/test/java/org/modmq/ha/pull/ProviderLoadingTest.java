package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.store.MessageStore;
import org.modmq.testkit.NettyLeakCheck;

@ExtendWith(NettyLeakCheck.class)
class ProviderLoadingTest {

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void registryFindsPullAndTheStoreDrivesIt() {
        ReplicationStrategyProvider provider = ProviderRegistry.load(ReplicationStrategyProvider.class).get("pull");
        assertThat(provider).isInstanceOf(PullReplicationStrategyProvider.class);
        try (MessageStore store = MessageStore.open(TestStores.classicSlave().with("haStrategy", "pull"),
                TestStores.plugin(dir, scheduler))) {
            assertThat(store.replicationStrategyName()).isEqualTo("pull");
            assertThat(store.replicas()).isEmpty();
            assertThatThrownBy(() -> store.becomeReplica(0, "no-port", 0)).hasMessageContaining("host:port");
            store.becomeMaster(0, 0);
            store.becomeReplica(0, null, 0);
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
