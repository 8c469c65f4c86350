package org.modmq.broker.runtime;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.BrokerConfigParser;
import org.modmq.broker.config.PluginCatalog;
import org.modmq.remoting.protocol.body.DataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker configuration as changed at run time by UPDATE_BROKER_CONFIG (25). Only the keys of
 * {@link RuntimeKeys} may change, each within its rule; every other key the broker knows is refused
 * ({@link RuntimeKeyException}), and so is a key it does not know ({@link ConfigException}). An update
 * is then validated again by re-parsing the whole configuration with the change applied (same ranges
 * and messages as at start-up) and is applied all or nothing; each applied update bumps
 * {@link #version()} and tells the listeners. Changes live in memory only (the configuration file is
 * not rewritten), and take effect where a reader asks {@link #current()}.
 * Thread-safe: reads are lock-free, updates are serialised.
 */
public final class LiveBrokerConfig {

    private static final Logger LOG = LoggerFactory.getLogger(LiveBrokerConfig.class);

    private final Clock clock;
    private final int startMaxMessageSize;
    private final List<Consumer<BrokerConfig>> listeners = new CopyOnWriteArrayList<>();
    private volatile BrokerConfig current;
    private volatile DataVersion version;

    /** @param initial the configuration the broker started with */
    public LiveBrokerConfig(BrokerConfig initial, Clock clock) {
        this.current = Objects.requireNonNull(initial, "initial");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.startMaxMessageSize = initial.store().maxMessageSize();
        this.version = DataVersion.initial(clock);
    }

    /** The configuration in force now. */
    public BrokerConfig current() {
        return current;
    }

    /** Version of the configuration, bumped by each applied update (GET_BROKER_CONFIG's {@code version}). */
    public DataVersion version() {
        return version;
    }

    /** Adds a listener told, on the updating thread, of every applied update; it must not block. */
    public void addListener(Consumer<BrokerConfig> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Applies {@code changes} all or nothing.
     *
     * @return the new configuration
     * @throws RuntimeKeyException when a known key may not change at run time (nothing applied)
     * @throws ConfigException when a key is unknown or a value is not valid (nothing applied)
     */
    public BrokerConfig update(Map<String, String> changes) {
        Objects.requireNonNull(changes, "changes");
        Set<String> known = new TreeSet<>(BrokerConfigParser.knownKeys());
        known.addAll(PluginCatalog.installed().declaredKeys());
        Set<String> unknown = new TreeSet<>();
        Set<String> refused = new TreeSet<>();
        for (String key : changes.keySet()) {
            if (!known.contains(key)) {
                unknown.add(key);
            } else if (!RuntimeKeys.isRuntimeKey(key)) {
                refused.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigException("unknown broker key(s) " + unknown + "; nothing changed");
        }
        if (!refused.isEmpty()) {
            throw new RuntimeKeyException("Can not update config in black list: " + refused
                    + " cannot change at run time; keys that can: " + RuntimeKeys.names());
        }
        for (Map.Entry<String, String> change : new TreeMap<>(changes).entrySet()) {
            RuntimeKeys.problem(change.getKey(), change.getValue(), () -> startMaxMessageSize).ifPresent(p -> {
                throw new ConfigException(p + "; nothing changed");
            });
        }
        BrokerConfig updated;
        synchronized (this) {
            BrokerConfig before = current;
            Map<String, String> merged = new TreeMap<>(before.raw().asMap());
            changes.forEach((k, v) -> merged.put(k.trim(), v.trim()));
            updated = BrokerConfigParser.parse(ConfigValues.of(merged), before.source());
            current = updated;
            version = version.next(clock);
        }
        LOG.info("broker configuration changed at run time: {}", new TreeMap<>(changes));
        for (Consumer<BrokerConfig> listener : listeners) {
            try {
                listener.accept(updated);
            } catch (RuntimeException e) {
                LOG.warn("acting on the run-time configuration change {} failed", new TreeMap<>(changes), e);
            }
        }
        return updated;
    }

    /** A key that the broker knows but that UPDATE_BROKER_CONFIG may not change. */
    public static final class RuntimeKeyException extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        RuntimeKeyException(String message) {
            super(message);
        }
    }
}
