package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plugin keys in the distribution's broker: the stock {@code mqadmin getBrokerConfig} prints the chosen
 * plugins' keys (set and defaulted) beside the broker's, as the README's "Plugin configuration" shows.
 */
@Tag("integration")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PluginConfigCompatTest {

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ModmqCluster.start(workDir, 1, Map.of("haStrategy", "push", "haPushWindowBytes", "1048576",
                "warmMapedFileEnable", "true"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void getBrokerConfigPrintsTheChosenPluginsKeys() {
        MqAdmin.Result result = MqAdmin.run(cluster.workDir(), "getBrokerConfig", "-n", cluster.namesrvAddr(),
                "-b", cluster.brokerAddr());
        assertThat(result.exitStatus()).as(result.output()).isZero();
        assertThat(result.output()).as(result.output())
                .contains(String.format("%-50s=  %s", "haPushWindowBytes", "1048576"))
                .contains(String.format("%-50s=  %s", "warmMapedFileEnable", "true"))
                .contains(String.format("%-50s=  %s", "haReconnectMaxMillis", "5000"))
                .contains(String.format("%-50s=  %s", "flushIntervalCommitLog", "500"))
                .contains(String.format("%-50s=  %s", "haStrategy", "push"));
    }
}
