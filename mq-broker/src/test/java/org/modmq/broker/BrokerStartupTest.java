package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BrokerStartupTest {

    @Test
    void readsTheConfigFileOption() {
        assertThat(BrokerStartup.configFile(new String[] {"-c", "conf/broker.conf"})).isEqualTo(Path.of("conf/broker.conf"));
        assertThat(BrokerStartup.configFile(new String[] {"--config", "b.conf"})).isEqualTo(Path.of("b.conf"));
        assertThat(BrokerStartup.configFile(new String[] {"-c", "conf/broker.conf", "-c", "conf/2m-2s-sync/broker-a.conf"}))
                .isEqualTo(Path.of("conf/2m-2s-sync/broker-a.conf"));
        assertThat(BrokerStartup.configFile(new String[] {"-c"})).isNull();
        assertThat(BrokerStartup.configFile(new String[0])).isNull();
    }

    @Test
    void aLaterConfigOptionOverridesTheLaunchersDefault() {
        // bin/mqbroker runs: BrokerStartup -c conf/broker.conf "$@"
        assertThat(BrokerStartup.configFile(new String[] {"-c", "conf/broker.conf", "-c", "/tmp/mine.conf"}))
                .isEqualTo(Path.of("/tmp/mine.conf"));
        assertThat(BrokerStartup.configFile(new String[] {"-c", "conf/broker.conf", "--config", "b.conf", "-c"}))
                .isEqualTo(Path.of("b.conf"));
    }
}
