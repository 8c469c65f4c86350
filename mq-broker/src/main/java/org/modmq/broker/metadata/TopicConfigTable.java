package org.modmq.broker.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.modmq.broker.config.BrokerIdentityConfig;
import org.modmq.broker.config.TopicDefaultsConfig;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.JsonBodyException;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.Perm;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.modmq.remoting.protocol.body.TopicConfigSerializeWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's topics, persisted in {@code <storePathRootDir>/config/topics.json} in the shape of
 * {@link TopicConfigSerializeWrapper}. Loaded and completed with the system topics when constructed;
 * every change bumps the {@link DataVersion}, is persisted before the call returns, and is then
 * reported to the listeners. Thread-safe: reads are lock-free, changes are serialised.
 */
public final class TopicConfigTable {

    public static final String FILE_NAME = "topics.json";
    private static final Logger LOG = LoggerFactory.getLogger(TopicConfigTable.class);

    private final AtomicJsonFile file;
    private final Clock clock;
    private final TopicDefaultsConfig defaults;
    private final Map<String, TopicConfig> topics = new ConcurrentHashMap<>();
    private final List<TopicChangeListener> listeners = new CopyOnWriteArrayList<>();
    private volatile DataVersion version;
    private volatile boolean autoCreateTopicEnable;

    /**
     * Loads {@code configDir/topics.json} (if present) and adds the system topics it lacks.
     *
     * @throws JsonBodyException when the file is corrupt (start-up must stop rather than lose topics)
     */
    public TopicConfigTable(Path configDir, Clock clock, BrokerIdentityConfig identity, TopicDefaultsConfig defaults) {
        this.file = new AtomicJsonFile(Objects.requireNonNull(configDir, "configDir").resolve(FILE_NAME));
        this.clock = Objects.requireNonNull(clock, "clock");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.autoCreateTopicEnable = defaults.autoCreateTopicEnable();
        Objects.requireNonNull(identity, "identity");
        DataVersion loaded = load();
        boolean added = false;
        for (TopicConfig system : SystemTopics.forBroker(identity, defaults)) {
            added |= topics.putIfAbsent(system.topicName(), system) == null;
        }
        this.version = loaded == null || added ? next(loaded) : loaded;
        if (loaded == null || added) {
            persist();
        }
    }

    /**
     * Run-time {@code autoCreateTopicEnable}: whether sends may create topics from {@code TBW102}. Turning it
     * on helps only where {@code TBW102} exists (it is created at start when the key is true), as in RocketMQ.
     */
    public void autoCreateTopicEnable(boolean enable) {
        autoCreateTopicEnable = enable;
    }

    /** Adds a listener told of every later create or update. */
    public void addListener(TopicChangeListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public Optional<TopicConfig> get(String topic) {
        return Optional.ofNullable(topics.get(topic));
    }

    /** A sorted snapshot of all topics. */
    public Map<String, TopicConfig> snapshot() {
        return Collections.unmodifiableMap(new TreeMap<>(topics));
    }

    public DataVersion dataVersion() {
        return version;
    }

    /**
     * Controller mode: a role change in {@code epoch} bumps the version and stamps it with the epoch as its
     * {@code stateVersion}, so the name servers prefer this broker's registration over an older master's.
     */
    public void stampStateVersion(long epoch) {
        synchronized (this) {
            DataVersion bumped = next(version);
            // Not persisted here: it is on a new master's way to the name servers, and a restarted broker is
            // stamped again when the controllers name its role.
            version = new DataVersion(bumped.counter(), epoch, bumped.timestamp());
        }
    }

    /**
     * A new version with the same topics: what a broker's registration needs when something other than a
     * topic changed what it registers (its permission), because name servers take the topic table of a
     * registration only when its version differs from the one they hold. Not persisted: it is called when
     * the disk may be failing, and a restarted broker's older version differs from theirs as well.
     */
    public void bumpVersion() {
        synchronized (this) {
            version = next(version);
        }
    }

    /** The current table in the "AndMapping" form used by registration and GET_ALL_TOPIC_CONFIG. */
    public TopicConfigSerializeWrapper wrapper() {
        synchronized (this) {
            return TopicConfigSerializeWrapper.withMapping(version, snapshot(), version);
        }
    }

    /**
     * Creates or replaces {@code topic}. An identical config changes nothing.
     *
     * @return true when something changed
     */
    public boolean upsert(TopicConfig topic) {
        Objects.requireNonNull(topic, "topic");
        DataVersion changed;
        synchronized (this) {
            if (topic.equals(topics.get(topic.topicName()))) {
                return false;
            }
            topics.put(topic.topicName(), topic);
            changed = bumpAndPersist();
        }
        LOG.info("topic {} is now {}", topic.topicName(), topic);
        notifyListeners(topic, changed);
        return true;
    }

    /**
     * Creates {@code topic} from the template {@code templateTopic} when it does not exist: the
     * template must exist and carry INHERIT; the new topic gets min(requested, template write queues)
     * queues and the template's perm without INHERIT.
     *
     * @return the existing or created topic, or empty when the template does not allow it
     */
    public Optional<TopicConfig> createFromTemplate(String topic, String templateTopic, int requestedQueues,
                                                    int topicSysFlag) {
        TopicConfig existing = topics.get(topic);
        if (existing != null) {
            return Optional.of(existing);
        }
        TopicConfig template = topics.get(templateTopic);
        if (template == null || !Perm.inherits(template.perm())
                || (templateTopic.equals(SystemTopics.AUTO_CREATE_TEMPLATE) && !autoCreateTopicEnable)) {
            return Optional.empty();
        }
        int queues = Math.max(1, Math.min(requestedQueues, template.writeQueueNums()));
        TopicConfig created = new TopicConfig(topic, queues, queues, template.perm() & ~Perm.INHERIT,
                TopicConfig.SINGLE_TAG, topicSysFlag, false, null);
        return Optional.of(createIfAbsent(created));
    }

    /** {@code %RETRY%group} with {@code queueNums} queues and perm 6, created if missing. */
    public TopicConfig retryTopicOf(String group, int queueNums) {
        return createIfAbsent(TopicConfig.of(TopicValidator.retryTopic(group), queueNums, Perm.READ_WRITE));
    }

    /** {@code %DLQ%group} with one queue and perm 6, created if missing. */
    public TopicConfig dlqTopicOf(String group) {
        return createIfAbsent(TopicConfig.of(TopicValidator.dlqTopic(group), 1, Perm.READ_WRITE));
    }

    /**
     * Deletes {@code topic}.
     *
     * @return whether it existed
     */
    public boolean delete(String topic) {
        synchronized (this) {
            if (topics.remove(topic) == null) {
                return false;
            }
            bumpAndPersist();
        }
        LOG.info("topic {} deleted", topic);
        return true;
    }

    private TopicConfig createIfAbsent(TopicConfig candidate) {
        DataVersion changed;
        synchronized (this) {
            TopicConfig existing = topics.get(candidate.topicName());
            if (existing != null) {
                return existing;
            }
            topics.put(candidate.topicName(), candidate);
            changed = bumpAndPersist();
        }
        LOG.info("topic {} created: {}", candidate.topicName(), candidate);
        notifyListeners(candidate, changed);
        return candidate;
    }

    private void notifyListeners(TopicConfig topic, DataVersion changed) {
        for (TopicChangeListener listener : listeners) {
            listener.topicChanged(topic, changed);
        }
    }

    private DataVersion bumpAndPersist() {
        version = next(version);
        persist();
        return version;
    }

    private DataVersion next(DataVersion current) {
        return current == null ? DataVersion.initial(clock).next(clock) : current.next(clock);
    }

    private void persist() {
        file.write(TopicConfigSerializeWrapper.plain(version, new TreeMap<>(topics)));
    }

    private DataVersion load() {
        Optional<JsonNode> root = file.read();
        if (root.isEmpty()) {
            return null;
        }
        JsonNode table = root.get().path("topicConfigTable");
        table.properties().forEach(entry -> {
            TopicConfig topic = Json.withDefaults(entry.getValue(), TopicConfig.defaults(entry.getKey()),
                    TopicConfig.class);
            topics.put(topic.topicName(), topic);
        });
        JsonNode storedVersion = root.get().get("dataVersion");
        DataVersion loaded = storedVersion == null ? DataVersion.initial(clock)
                : Json.mapper().convertValue(storedVersion, DataVersion.class);
        LOG.info("loaded {} topics from {} at version {}", topics.size(), file.path(), loaded);
        return loaded;
    }
}
