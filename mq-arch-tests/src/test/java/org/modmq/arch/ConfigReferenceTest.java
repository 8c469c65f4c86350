package org.modmq.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.modmq.broker.config.ConfigReference;
import org.modmq.broker.config.PluginCatalog;

/**
 * {@code docs/config.md} is what {@link ConfigReference} renders from the declarations of the broker and
 * of every bundled plugin (all of them are on this module's test class path). Run with
 * {@code -Dmodmq.regenerate=true} to rewrite the file instead of comparing.
 */
class ConfigReferenceTest {

    private static final Path FILE = Path.of("..", "docs", "config.md");
    private static final String REGENERATE = "mvn -o -q -pl mq-arch-tests -am test -Dtest=ConfigReferenceTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dmodmq.regenerate=true";

    @Test
    void docsConfigMdIsCurrent() throws IOException {
        String rendered = ConfigReference.render(PluginCatalog.installed());
        if (Boolean.getBoolean("modmq.regenerate")) {
            Files.writeString(FILE, rendered, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(FILE)).as("docs/config.md is missing; create it with: " + REGENERATE).isTrue();
        assertThat(Files.readString(FILE, StandardCharsets.UTF_8))
                .as("docs/config.md is not what the key declarations say; regenerate it with: " + REGENERATE)
                .isEqualTo(rendered);
    }

    @Test
    void everyBundledPluginAndBrokerKeyIsListed() {
        String rendered = ConfigReference.render(PluginCatalog.installed());
        assertThat(rendered).contains("### `storeBackend=mmap`", "### `storeBackend=direct`",
                "### `flushDiskType=SYNC_FLUSH`", "### `flushDiskType=ASYNC_FLUSH`", "### `haStrategy=pull`",
                "### `haStrategy=push`", "| `directReadCacheBytes` |", "| `haPushWindowBytes` |",
                "| `flushIntervalCommitLog` |", "| `listenPort` |", "| `storePathRootDir` | string | `~/store` |");
    }
}
