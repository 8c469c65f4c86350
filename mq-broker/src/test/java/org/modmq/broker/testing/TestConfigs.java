package org.modmq.broker.testing;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.modmq.api.config.ConfigValues;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.BrokerConfigParser;

/** Broker configurations for tests: loopback, ephemeral port, store under a temp dir. */
public final class TestConfigs {

    private TestConfigs() {
    }

    public static BrokerConfig broker(Path storeRoot, String... keyValues) {
        Map<String, String> values = new TreeMap<>();
        values.put("brokerName", "broker-a");
        values.put("brokerIP1", "127.0.0.1");
        values.put("listenPort", "0");
        values.put("haListenPort", "0");
        values.put("storePathRootDir", storeRoot.toString());
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            values.put(keyValues[i], keyValues[i + 1]);
        }
        return BrokerConfigParser.parse(ConfigValues.of(values), "test");
    }
}
