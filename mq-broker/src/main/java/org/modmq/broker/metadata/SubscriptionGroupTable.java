package org.modmq.broker.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.JsonBodyException;
import org.modmq.remoting.protocol.body.DataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumer-group configs, persisted in {@code subscriptionGroup.json} in the shape of
 * {@link Wrapper}. Every change bumps the {@link DataVersion} and is persisted before the call
 * returns. Thread-safe: reads are lock-free, changes are serialised.
 */
public final class SubscriptionGroupTable {

    public static final String FILE_NAME = "subscriptionGroup.json";
    /** Groups RocketMQ creates at start; they exist even when auto-creation is off. */
    public static final Set<String> SYSTEM_GROUPS = Set.of("TOOLS_CONSUMER", "FILTERSRV_CONSUMER",
            "SELF_TEST_C_GROUP", "CID_ONS-HTTP-PROXY", "CID_ONSAPI_PULL", "CID_ONSAPI_PERMISSION",
            "CID_ONSAPI_OWNER", "CID_SYS_RMQ_TRANS");
    private static final Logger LOG = LoggerFactory.getLogger(SubscriptionGroupTable.class);

    private final AtomicJsonFile file;
    private final Clock clock;
    private volatile boolean autoCreate;
    private final Map<String, SubscriptionGroupConfig> groups = new ConcurrentHashMap<>();
    private volatile DataVersion version;

    /** Persisted form, also the GET_ALL_SUBSCRIPTIONGROUP_CONFIG body. */
    public record Wrapper(DataVersion dataVersion, Map<String, SubscriptionGroupConfig> subscriptionGroupTable,
                          Map<String, Object> forbiddenTable) {
    }

    /**
     * Loads {@code configDir/subscriptionGroup.json} if present and adds the system groups.
     *
     * @param autoCreate {@code autoCreateSubscriptionGroup}
     * @throws JsonBodyException when the file is corrupt
     */
    public SubscriptionGroupTable(Path configDir, Clock clock, boolean autoCreate) {
        this.file = new AtomicJsonFile(Objects.requireNonNull(configDir, "configDir").resolve(FILE_NAME));
        this.clock = Objects.requireNonNull(clock, "clock");
        this.autoCreate = autoCreate;
        this.version = load().orElseGet(() -> DataVersion.initial(clock));
        SYSTEM_GROUPS.forEach(g -> groups.putIfAbsent(g, SubscriptionGroupConfig.defaults(g)));
    }

    /** Run-time {@code autoCreateSubscriptionGroup}. */
    public void autoCreate(boolean enable) {
        autoCreate = enable;
    }

    public Optional<SubscriptionGroupConfig> get(String group) {
        return Optional.ofNullable(groups.get(group));
    }

    /**
     * The group, created with defaults when auto-creation is on or it is a system group; else empty.
     * As in RocketMQ, a name that is blank or has characters other than {@code %|a-zA-Z0-9_-} is never
     * created (a heartbeat or pull naming one would otherwise leave that group, and its retry topic,
     * stored for good), nor one that {@link TopicValidator#autoCreatedGroupProblem} refuses.
     */
    public Optional<SubscriptionGroupConfig> findOrCreate(String group) {
        SubscriptionGroupConfig existing = group == null ? null : groups.get(group);
        if (existing != null) {
            return Optional.of(existing);
        }
        if (group == null || !autoCreate && !SYSTEM_GROUPS.contains(group)) {
            return Optional.empty();
        }
        Optional<String> problem = TopicValidator.autoCreatedGroupProblem(group);
        if (problem.isPresent()) {
            LOG.info("subscription group not created: {}", problem.get());
            return Optional.empty();
        }
        synchronized (this) {
            existing = groups.get(group);
            if (existing != null) {
                return Optional.of(existing);
            }
            SubscriptionGroupConfig created = SubscriptionGroupConfig.defaults(group);
            groups.put(group, created);
            bumpAndPersist();
            LOG.info("subscription group {} created", group);
            return Optional.of(created);
        }
    }


    /** Creates or replaces a group (UPDATE_AND_CREATE_SUBSCRIPTIONGROUP). */
    public synchronized void upsert(SubscriptionGroupConfig config) {
        Objects.requireNonNull(config, "config");
        if (config.equals(groups.put(config.groupName(), config))) {
            return;
        }
        bumpAndPersist();
        LOG.info("subscription group {} is now {}", config.groupName(), config);
    }

    /** Deletes a group; returns whether it existed. */
    public synchronized boolean delete(String group) {
        if (groups.remove(group) == null) {
            return false;
        }
        bumpAndPersist();
        LOG.info("subscription group {} deleted", group);
        return true;
    }

    public DataVersion dataVersion() {
        return version;
    }

    public Wrapper wrapper() {
        return new Wrapper(version, new TreeMap<>(groups), Map.of());
    }

    private void bumpAndPersist() {
        version = version.next(clock);
        file.write(wrapper());
    }

    private Optional<DataVersion> load() {
        Optional<JsonNode> root = file.read();
        if (root.isEmpty()) {
            return Optional.empty();
        }
        root.get().path("subscriptionGroupTable").properties().forEach(entry -> groups.put(entry.getKey(),
                Json.withDefaults(entry.getValue(), SubscriptionGroupConfig.defaults(entry.getKey()),
                        SubscriptionGroupConfig.class)));
        JsonNode storedVersion = root.get().get("dataVersion");
        LOG.info("loaded {} subscription groups from {}", groups.size(), file.path());
        return Optional.ofNullable(storedVersion == null ? null
                : Json.mapper().convertValue(storedVersion, DataVersion.class));
    }
}
