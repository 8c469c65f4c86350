package org.modmq.api.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.modmq.api.spi.storage.StorageBackendProvider;

class ProviderRegistryTest {

    record Named(String name) implements NamedProvider {
    }

    @Test
    void findsProviderByName() {
        ProviderRegistry<Named> registry = ProviderRegistry.of(Named.class, List.of(new Named("b"), new Named("a")));

        assertThat(registry.get("a").name()).isEqualTo("a");
        assertThat(registry.names()).containsExactly("a", "b");
    }

    @Test
    void unknownNameListsThePresentOnes() {
        ProviderRegistry<Named> registry = ProviderRegistry.of(Named.class, List.of(new Named("mmap"), new Named("direct")));

        assertThatThrownBy(() -> registry.get("rocks"))
                .isInstanceOf(UnknownProviderException.class)
                .hasMessageContaining("'rocks'")
                .hasMessageContaining("[direct, mmap]");
    }

    @Test
    void rejectsDuplicateNames() {
        assertThatThrownBy(() -> ProviderRegistry.of(Named.class, List.of(new Named("x"), new Named("x"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'x'");
    }

    @Test
    void serviceLoaderWithoutPluginsFindsNoneAndSaysSo() {
        ProviderRegistry<StorageBackendProvider> registry = ProviderRegistry.load(StorageBackendProvider.class);

        assertThat(registry.names()).isEmpty();
        assertThatThrownBy(() -> registry.get("mmap")).hasMessageContaining("present: []");
    }
}
