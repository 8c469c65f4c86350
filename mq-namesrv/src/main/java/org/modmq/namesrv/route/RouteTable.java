package org.modmq.namesrv.route;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import org.modmq.namesrv.body.BrokerData;
import org.modmq.namesrv.body.BrokerMemberGroup;
import org.modmq.namesrv.body.ClusterInfo;
import org.modmq.namesrv.body.QueueData;
import org.modmq.namesrv.body.TopicList;
import org.modmq.namesrv.body.TopicRouteData;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.Perm;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The name server's routing state: which brokers are alive, which broker sets and clusters they
 * form, and which queues each topic has on each broker set. Thread-safe: one read-write lock guards
 * all tables; every answer is a copy that callers own.
 */
public final class RouteTable {

    private static final Logger LOG = LoggerFactory.getLogger(RouteTable.class);

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final RouteState state = new RouteState();
    private final Clock clock;
    private final BrokerRegistrar registrar;

    /**
     * @param clock                             time source for liveness
     * @param defaultBrokerTimeoutMillis        expiry of a broker that names no timeout of its own
     * @param deleteTopicWithBrokerRegistration whether a full registration drops the broker's unlisted topics
     */
    public RouteTable(Clock clock, long defaultBrokerTimeoutMillis, boolean deleteTopicWithBrokerRegistration) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (defaultBrokerTimeoutMillis <= 0) {
            throw new IllegalArgumentException("defaultBrokerTimeoutMillis must be positive: " + defaultBrokerTimeoutMillis);
        }
        this.registrar = new BrokerRegistrar(defaultBrokerTimeoutMillis, deleteTopicWithBrokerRegistration);
    }

    /** Applies a broker registration (docs/protocol.md section 3.2, steps 2–9). */
    public RegisterOutcome register(BrokerRegistration registration) {
        Objects.requireNonNull(registration, "registration");
        lock.writeLock().lock();
        try {
            return registrar.register(state, registration, clock.millis());
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes one broker as {@code UNREGISTER_BROKER} asks. */
    public void unregister(String clusterName, String brokerAddr, String brokerName, long brokerId) {
        RouteState.Removal removal = new RouteState.Removal(Objects.requireNonNull(clusterName, "clusterName"),
                Objects.requireNonNull(brokerAddr, "brokerAddr"), Objects.requireNonNull(brokerName, "brokerName"),
                brokerId);
        lock.writeLock().lock();
        try {
            state.remove(List.of(removal));
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Removes every broker that registered over {@code channel} (it closed, failed or idled out).
     *
     * @return how many brokers were removed
     */
    public int removeBrokersOfChannel(Object channel) {
        Objects.requireNonNull(channel, "channel");
        lock.writeLock().lock();
        try {
            List<RouteState.Removal> removals = state.removalsForChannel(channel);
            if (!removals.isEmpty()) {
                LOG.info("connection {} closed; removing {} broker(s)", channel, removals.size());
                state.remove(removals);
            }
            return removals.size();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Removes every broker silent for longer than its timeout.
     *
     * @return the removed brokers with their last liveness (whose channel the caller may close)
     */
    public Map<BrokerAddrKey, BrokerLiveInfo> expireSilentBrokers() {
        long now = clock.millis();
        lock.writeLock().lock();
        try {
            Map<BrokerAddrKey, BrokerLiveInfo> expired = new LinkedHashMap<>();
            for (Map.Entry<BrokerAddrKey, BrokerLiveInfo> entry : state.liveTable.entrySet()) {
                if (entry.getValue().isExpiredAt(now)) {
                    expired.put(entry.getKey(), entry.getValue());
                }
            }
            if (!expired.isEmpty()) {
                List<RouteState.Removal> removals = new ArrayList<>();
                for (Map.Entry<BrokerAddrKey, BrokerLiveInfo> entry : expired.entrySet()) {
                    LOG.warn("broker {} expired: silent for {} ms (timeout {} ms)", entry.getKey(),
                            now - entry.getValue().lastUpdateMillis(), entry.getValue().timeoutMillis());
                    removals.add(state.removalOrBare(entry.getKey()));
                }
                state.remove(removals);
            }
            return expired;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Marks a live broker as heard from now ({@code BROKER_HEARTBEAT}).
     *
     * @return false when the broker is not live
     */
    public boolean refresh(String clusterName, String brokerAddr) {
        BrokerAddrKey key = new BrokerAddrKey(clusterName, brokerAddr);
        lock.writeLock().lock();
        try {
            BrokerLiveInfo live = state.liveTable.get(key);
            if (live == null) {
                return false;
            }
            state.liveTable.put(key, live.refreshedAt(clock.millis()));
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Compares a broker's version with the stored one and refreshes its liveness ({@code QUERY_DATA_VERSION}). */
    public DataVersionCheck checkDataVersion(String clusterName, String brokerAddr, DataVersion brokerVersion) {
        BrokerAddrKey key = new BrokerAddrKey(clusterName, brokerAddr);
        lock.writeLock().lock();
        try {
            BrokerLiveInfo live = state.liveTable.get(key);
            if (live == null) {
                return new DataVersionCheck(true, null);
            }
            state.liveTable.put(key, live.refreshedAt(clock.millis()));
            return new DataVersionCheck(!live.dataVersion().equals(brokerVersion), live.dataVersion());
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The liveness entry of a broker, if it is live. */
    public Optional<BrokerLiveInfo> liveInfo(String clusterName, String brokerAddr) {
        lock.readLock().lock();
        try {
            return Optional.ofNullable(state.liveTable.get(new BrokerAddrKey(clusterName, brokerAddr)));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The route of a topic: its queue data and the broker sets holding them. Empty when the topic has
     * no queue data or none of its broker names has a broker set.
     */
    public Optional<TopicRouteData> route(String topic) {
        lock.readLock().lock();
        try {
            Map<String, QueueData> queues = state.topicQueueTable.get(topic);
            if (queues == null || queues.isEmpty()) {
                return Optional.empty();
            }
            List<BrokerData> brokers = new ArrayList<>();
            Map<String, List<String>> filterServers = new TreeMap<>();
            for (String brokerName : queues.keySet()) {
                BrokerSet set = state.brokerAddrTable.get(brokerName);
                if (set == null) {
                    continue;
                }
                BrokerData data = set.snapshot();
                brokers.add(data);
                for (String addr : data.brokerAddrs().values()) {
                    List<String> servers = state.filterServerTable.get(new BrokerAddrKey(data.cluster(), addr));
                    if (servers != null) {
                        filterServers.put(addr, List.copyOf(servers));
                    }
                }
            }
            if (brokers.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new TopicRouteData(brokers, filterServers, null, new ArrayList<>(queues.values())));
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Every broker set and cluster. */
    public ClusterInfo clusterInfo() {
        lock.readLock().lock();
        try {
            Map<String, BrokerData> brokers = new TreeMap<>();
            state.brokerAddrTable.forEach((name, set) -> brokers.put(name, set.snapshot()));
            Map<String, Set<String>> clusters = new TreeMap<>();
            state.clusterAddrTable.forEach((name, names) -> clusters.put(name, new TreeSet<>(names)));
            return new ClusterInfo(brokers, clusters);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Every topic with queue data. */
    public TopicList allTopics() {
        lock.readLock().lock();
        try {
            return new TopicList(null, new TreeSet<>(state.topicQueueTable.keySet()));
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Topics with queue data on any broker set of the cluster. */
    public TopicList topicsOfCluster(String clusterName) {
        lock.readLock().lock();
        try {
            Set<String> names = state.clusterAddrTable.getOrDefault(clusterName, Set.of());
            Set<String> topics = new TreeSet<>();
            state.topicQueueTable.forEach((topic, queues) -> {
                if (queues.keySet().stream().anyMatch(names::contains)) {
                    topics.add(topic);
                }
            });
            return new TopicList(null, topics);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Cluster names and broker names (their "system topics"), with some broker address. */
    public TopicList systemTopics() {
        lock.readLock().lock();
        try {
            Set<String> topics = new TreeSet<>();
            state.clusterAddrTable.forEach((cluster, names) -> {
                topics.add(cluster);
                topics.addAll(names);
            });
            String someAddr = null;
            for (BrokerSet set : state.brokerAddrTable.values()) {
                if (!set.addrs().isEmpty()) {
                    someAddr = set.addrs().firstEntry().getValue();
                    break;
                }
            }
            return new TopicList(someAddr, topics);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Topics any of whose queue data has a {@code topicSysFlag} accepted by {@code flagTest}. */
    public TopicList topicsWithSysFlag(IntPredicate flagTest) {
        Objects.requireNonNull(flagTest, "flagTest");
        lock.readLock().lock();
        try {
            Set<String> topics = new TreeSet<>();
            state.topicQueueTable.forEach((topic, queues) -> {
                if (queues.values().stream().anyMatch(q -> flagTest.test(q.topicSysFlag()))) {
                    topics.add(topic);
                }
            });
            return new TopicList(null, topics);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Clears the write bit of every queue data of a broker set.
     *
     * @return how many topics were touched
     */
    public int wipeWritePerm(String brokerName) {
        return rewritePerm(brokerName, perm -> perm & ~Perm.WRITE);
    }

    /**
     * Sets every queue data of a broker set to read and write.
     *
     * @return how many topics were touched
     */
    public int addWritePerm(String brokerName) {
        return rewritePerm(brokerName, perm -> Perm.READ | Perm.WRITE);
    }

    private int rewritePerm(String brokerName, IntUnaryOperator change) {
        Objects.requireNonNull(brokerName, "brokerName");
        lock.writeLock().lock();
        try {
            int count = 0;
            for (Map<String, QueueData> queues : state.topicQueueTable.values()) {
                QueueData queueData = queues.get(brokerName);
                if (queueData != null) {
                    queues.put(brokerName, queueData.withPerm(change.applyAsInt(queueData.perm())));
                    count++;
                }
            }
            LOG.info("permission of broker {} changed on {} topic(s)", brokerName, count);
            return count;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Deletes a topic's route: only the queue data of the cluster's broker sets when
     * {@code clusterName} is given, else all of it.
     */
    public void deleteTopic(String topic, String clusterName) {
        Objects.requireNonNull(topic, "topic");
        lock.writeLock().lock();
        try {
            if (clusterName == null || clusterName.isBlank()) {
                state.topicQueueTable.remove(topic);
            } else {
                Map<String, QueueData> queues = state.topicQueueTable.get(topic);
                Set<String> names = state.clusterAddrTable.get(clusterName);
                if (queues != null && names != null) {
                    queues.keySet().removeAll(names);
                    if (queues.isEmpty()) {
                        state.topicQueueTable.remove(topic);
                    }
                }
            }
            LOG.info("topic {} deleted (cluster {})", topic, clusterName);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Adds queue data to a topic ({@code REGISTER_TOPIC_IN_NAMESRV}). Nothing changes if any of the
     * broker names has no broker set.
     *
     * @return false when a broker name is unknown
     */
    public boolean registerTopic(String topic, List<QueueData> queueDatas) {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(queueDatas, "queueDatas");
        lock.writeLock().lock();
        try {
            for (QueueData queueData : queueDatas) {
                if (queueData == null || queueData.brokerName() == null
                        || !state.brokerAddrTable.containsKey(queueData.brokerName())) {
                    LOG.warn("topic {} not registered: unknown broker in {}", topic, queueData);
                    return false;
                }
            }
            for (QueueData queueData : queueDatas) {
                state.putQueueData(topic, queueData);
            }
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The members of a broker set (an empty address map when unknown). */
    public BrokerMemberGroup memberGroup(String clusterName, String brokerName) {
        lock.readLock().lock();
        try {
            BrokerSet set = state.brokerAddrTable.get(brokerName);
            Map<Long, String> addrs = set == null ? new TreeMap<>() : new TreeMap<>(set.addrs());
            return new BrokerMemberGroup(addrs, brokerName, clusterName);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Number of live brokers; for monitoring and tests. */
    public int liveBrokerCount() {
        lock.readLock().lock();
        try {
            return state.liveTable.size();
        } finally {
            lock.readLock().unlock();
        }
    }
}
