package org.modmq.broker.config;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.NamedProvider;

/**
 * The plugin keys of one {@code broker.conf}. Every key that some installed provider declares is
 * accepted; the keys of the chosen providers ({@code storeBackend}, {@code flushDiskType},
 * {@code haStrategy}) are parsed and checked with the chosen provider's declaration, and their values
 * in force (defaults included) join the effective configuration. Keys of installed providers that are not
 * chosen are accepted unchecked, because two providers may declare one key with different bounds (pull
 * and push both read {@code haTransferBatchSize}). A chosen name that no provider answers to is left to
 * {@code PluginSelection}, which fails listing the names present. Immutable.
 *
 * @param effective the chosen providers' keys with the values in force
 * @param accepted every key an installed provider declares
 * @param chosenNames the name of each chosen provider by selector key, as the provider spells it
 */
record PluginKeys(Map<String, String> effective, Set<String> accepted, Map<String, String> chosenNames) {

    PluginKeys {
        effective = Collections.unmodifiableMap(new TreeMap<>(effective));
        accepted = Collections.unmodifiableSet(new TreeSet<>(accepted));
        chosenNames = Collections.unmodifiableMap(new TreeMap<>(chosenNames));
    }

    /**
     * @param values the file's settings
     * @param source the file, for errors
     * @param chosen the provider name each selector key holds ({@code storeBackend=mmap}, ...)
     * @param brokerKeys the keys the broker reads itself; no plugin may declare one
     * @throws ConfigException when a chosen provider's key has a bad value, naming key, value and source, or
     *     when an installed provider declares a broker key
     */
    static PluginKeys read(ConfigValues values, String source, Map<String, String> chosen, Set<String> brokerKeys,
                           PluginCatalog catalog) {
        Objects.requireNonNull(values, "values");
        Set<String> accepted = new TreeSet<>();
        Map<String, String> effective = new TreeMap<>();
        Map<String, String> names = new TreeMap<>();
        for (PluginCatalog.Slot slot : catalog.slots()) {
            for (NamedProvider provider : slot.providers()) {
                for (ConfigKey key : PluginCatalog.keysOf(provider)) {
                    if (brokerKeys.contains(key.name())) {
                        throw new ConfigException(slot.selectorKey() + " plugin '" + provider.name() + "' ("
                                + provider.getClass().getName() + ") declares '" + key.name()
                                + "', a key the broker reads itself; a plugin reads broker keys from "
                                + "PluginConfig.values() without declaring them");
                    }
                    accepted.add(key.name());
                }
            }
            String name = chosen.get(slot.selectorKey());
            if (name == null) {
                continue;
            }
            Optional<NamedProvider> provider = slot.find(name);
            if (provider.isPresent()) {
                names.put(slot.selectorKey(), provider.get().name());
                effective.putAll(PluginConfig.of(PluginCatalog.keysOf(provider.get()), values, source).effective());
            }
        }
        return new PluginKeys(effective, accepted, names);
    }
}
