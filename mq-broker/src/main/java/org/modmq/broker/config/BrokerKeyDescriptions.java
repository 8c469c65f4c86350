package org.modmq.broker.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.modmq.api.config.ConfigKey;

/**
 * The one-line descriptions of the broker's own keys ({@code broker-keys.properties} beside this class),
 * joined to the declarations the parser records. Stateless and thread-safe.
 */
final class BrokerKeyDescriptions {

    private static final String RESOURCE = "broker-keys.properties";
    private static final String DEFAULT_SUFFIX = ".default";
    private static final Properties TEXT = load();

    private BrokerKeyDescriptions() {
    }

    /** {@code keys} with their descriptions (empty where the file has none), sorted by name. */
    static List<ConfigKey> describe(Collection<ConfigKey> keys) {
        List<ConfigKey> described = new ArrayList<>();
        for (ConfigKey key : keys) {
            described.add(new ConfigKey(key.name(), key.type(), key.defaultValue(),
                    TEXT.getProperty(key.name(), ""), key.min(), key.max(), key.choices()));
        }
        described.sort(java.util.Comparator.comparing(ConfigKey::name));
        return described;
    }

    /** How the reference shows the default of {@code key} when it depends on the host, if it does. */
    static Optional<String> hostDependentDefault(String key) {
        return Optional.ofNullable(TEXT.getProperty(key + DEFAULT_SUFFIX));
    }

    private static Properties load() {
        Properties properties = new Properties();
        try (InputStream in = BrokerKeyDescriptions.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing beside " + BrokerKeyDescriptions.class.getName());
            }
            properties.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        return properties;
    }
}
