package org.modmq.broker.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Collections;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.ConfigValues;
import org.modmq.metrics.MetricsConfig;
import org.modmq.remoting.netty.RemotingServerKeys;
import org.modmq.remoting.netty.TlsSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parses {@code broker.conf} ({@link Properties} syntax, RocketMQ key names) into a {@link BrokerConfig}.
 * Besides the broker's own keys it accepts every key an installed plugin declares and checks those of the
 * chosen plugins ({@code PluginKeys}). An unknown key is a {@link ConfigException} naming the key and the
 * file; a RocketMQ key modmq does not act on is a warning. Stateless and thread-safe.
 */
public final class BrokerConfigParser {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerConfigParser.class);

    /** What the broker reads, found by parsing no values: each key with its type, default and bounds. */
    private static final Map<String, ConfigKey> READ_KEYS = readKeysOnce();

    /** Every key the parser reads or accepts as an ignored RocketMQ key. */
    private static final Set<String> KNOWN_KEYS = knownKeysOnce();

    private BrokerConfigParser() {
    }

    /**
     * Every key of the broker itself that {@code broker.conf} may hold: the keys read and the RocketMQ keys
     * accepted and ignored. Plugin keys are not among them (see {@link PluginCatalog#declaredKeys()}).
     */
    public static Set<String> knownKeys() {
        return KNOWN_KEYS;
    }

    /** The RocketMQ keys accepted with a warning and otherwise ignored, sorted. */
    public static Set<String> ignoredKeys() {
        return Collections.unmodifiableSet(new TreeSet<>(IgnoredKeys.ROCKETMQ));
    }

    /**
     * The declarations of the keys the broker reads itself, sorted by name, with the descriptions of
     * {@code broker-keys.properties}: the broker's part of the configuration reference.
     */
    public static List<ConfigKey> declarations() {
        return BrokerKeyDescriptions.describe(READ_KEYS.values());
    }

    private static Map<String, ConfigKey> readKeysOnce() {
        ConfigReader reader = new ConfigReader(ConfigValues.empty(), "(defaults)");
        readAll(reader);
        return reader.declarations();
    }

    private static Set<String> knownKeysOnce() {
        Set<String> keys = new TreeSet<>(READ_KEYS.keySet());
        keys.addAll(IgnoredKeys.ROCKETMQ);
        return Collections.unmodifiableSet(keys);
    }

    /** The parts of a configuration, read in order. */
    private record Parts(BrokerIdentityConfig identity, NameServerConfig nameServer, StoreKeysConfig store,
                         ReplicationConfig replication, ControllerModeConfig controller, TopicDefaultsConfig topics,
                         ConsumeConfig consume, ExecutorConfig executors, TransactionConfig transactions,
                         TimerConfig timer, AccessControlConfig acl, RemotingServerKeys.Limits remoting,
                         TlsSettings tls, MetricsConfig metrics) {
    }

    private static Parts readAll(ConfigReader reader) {
        BrokerIdentityConfig identity = BrokerIdentityConfig.read(reader);
        NameServerConfig nameServer = NameServerConfig.read(reader);
        StoreKeysConfig store = StoreKeysConfig.read(reader);
        ReplicationConfig replication = ReplicationConfig.read(reader);
        ControllerModeConfig controller = ControllerModeConfig.read(reader, store.rootDir());
        TopicDefaultsConfig topics = TopicDefaultsConfig.read(reader);
        ConsumeConfig consume = ConsumeConfig.read(reader);
        ExecutorConfig executors = ExecutorConfig.read(reader);
        TransactionConfig transactions = TransactionConfig.read(reader);
        TimerConfig timer = TimerConfig.read(reader);
        AccessControlConfig acl = AccessControlConfig.read(reader);
        RemotingServerKeys.Limits remoting = RemotingKeysConfig.read(reader, store.maxMessageSize());
        TlsSettings tls = TlsKeys.read(reader);
        MetricsConfig metrics = MetricsKeysConfig.read(reader);
        return new Parts(identity, nameServer, store, replication, controller, topics, consume, executors,
                transactions, timer, acl, remoting, tls, metrics);
    }

    /**
     * Reads and parses {@code file}.
     *
     * @throws ConfigException when the file cannot be read, has an unknown key or a bad value
     */
    public static BrokerConfig parse(Path file) {
        Objects.requireNonNull(file, "file");
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("cannot read broker configuration " + file + ": " + e.getMessage());
        }
        Map<String, String> values = new TreeMap<>();
        properties.stringPropertyNames().forEach(k -> values.put(k.trim(), properties.getProperty(k)));
        return parse(ConfigValues.of(values), file.toString());
    }

    /**
     * Parses values that did not come from a file (embedding, tests), with the plugins installed in this
     * runtime; {@code source} names them in errors.
     *
     * @throws ConfigException on an unknown key or a bad value
     */
    public static BrokerConfig parse(ConfigValues values, String source) {
        return parse(values, source, PluginCatalog.installed());
    }

    /**
     * Parses {@code values} accepting the keys the providers of {@code catalog} declare and checking those
     * of the chosen providers.
     *
     * @throws ConfigException on an unknown key or a bad value, naming key, value and {@code source}
     */
    public static BrokerConfig parse(ConfigValues values, String source, PluginCatalog catalog) {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(catalog, "catalog");
        ConfigReader reader = new ConfigReader(values, source);
        Parts p = readAll(reader);
        Map<String, String> chosen = Map.of(PluginCatalog.STORAGE_KEY, p.store().storeBackend(),
                PluginCatalog.FLUSH_KEY, p.store().flushDiskType(),
                PluginCatalog.REPLICATION_KEY, p.replication().strategy());
        PluginKeys plugins = PluginKeys.read(values, source, chosen, READ_KEYS.keySet(), catalog);
        Map<String, String> effective = new TreeMap<>(reader.effective());
        effective.putAll(plugins.effective());
        effective.putAll(plugins.chosenNames());
        StoreKeysConfig store = p.store().withFlushDiskType(
                plugins.chosenNames().getOrDefault(PluginCatalog.FLUSH_KEY, p.store().flushDiskType()));
        List<String> warnings = new ArrayList<>();
        for (String key : values.keys()) {
            if (reader.consumed().contains(key) || plugins.accepted().contains(key)) {
                continue;
            }
            if (IgnoredKeys.ROCKETMQ.contains(key)) {
                String warning = "RocketMQ key '" + key + "' in " + source + " is not used by modmq and is ignored";
                LOG.warn(warning);
                warnings.add(warning);
            } else {
                throw new ConfigException("unknown key '" + key + "' in " + source + ": not a broker key, and "
                        + "no installed plugin declares it (installed: " + catalog.describe() + ")");
            }
        }
        return new BrokerConfig(p.identity(), p.nameServer(), store, p.replication(), p.controller(), p.topics(),
                p.consume(), p.executors(), p.transactions(), p.timer(), p.acl(), p.remoting(), p.tls(), p.metrics(),
                values, effective, warnings, source);
    }
}
