package org.modmq.namesrv.route;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.modmq.namesrv.body.QueueData;
import org.modmq.remoting.protocol.body.Perm;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The name server's tables (docs/protocol.md section 3.1) and the removal rules. Not
 * thread-safe: {@link RouteTable} guards every access with its lock.
 */
final class RouteState {

    private static final Logger LOG = LoggerFactory.getLogger(RouteState.class);

    /** topic → brokerName → queues. */
    final Map<String, Map<String, QueueData>> topicQueueTable = new TreeMap<>();
    /** brokerName → broker set. */
    final Map<String, BrokerSet> brokerAddrTable = new TreeMap<>();
    /** clusterName → broker names. */
    final Map<String, Set<String>> clusterAddrTable = new TreeMap<>();
    /** live brokers. */
    final Map<BrokerAddrKey, BrokerLiveInfo> liveTable = new HashMap<>();
    /** legacy filter servers per broker. */
    final Map<BrokerAddrKey, List<String>> filterServerTable = new HashMap<>();

    /** A broker to remove: what {@code UNREGISTER_BROKER} names. */
    record Removal(String clusterName, String brokerAddr, String brokerName, long brokerId) {
    }

    /**
     * Removes the brokers (live entry, filter servers, address in its broker set); a broker set left
     * empty disappears with its cluster membership and its queue data, and topics left without
     * queue data vanish.
     */
    void remove(List<Removal> removals) {
        Set<String> removedNames = new TreeSet<>();
        Set<String> reducedNames = new TreeSet<>();
        for (Removal removal : removals) {
            BrokerAddrKey key = new BrokerAddrKey(removal.clusterName(), removal.brokerAddr());
            BrokerLiveInfo live = liveTable.remove(key);
            filterServerTable.remove(key);
            LOG.info("removing broker {} {} id {} of cluster {} (was live: {})", removal.brokerName(),
                    removal.brokerAddr(), removal.brokerId(), removal.clusterName(), live != null);
            BrokerSet set = brokerAddrTable.get(removal.brokerName());
            boolean setGone = false;
            if (set != null) {
                set.addrs().values().removeIf(addr -> addr.equals(removal.brokerAddr()));
                if (set.addrs().isEmpty()) {
                    brokerAddrTable.remove(removal.brokerName());
                    setGone = true;
                }
            }
            if (setGone) {
                Set<String> names = clusterAddrTable.get(removal.clusterName());
                if (names != null) {
                    names.remove(removal.brokerName());
                    if (names.isEmpty()) {
                        clusterAddrTable.remove(removal.clusterName());
                    }
                }
                removedNames.add(removal.brokerName());
                reducedNames.remove(removal.brokerName());
            } else if (!removedNames.contains(removal.brokerName())) {
                reducedNames.add(removal.brokerName());
            }
        }
        cleanTopics(removedNames, reducedNames);
    }

    private void cleanTopics(Set<String> removedNames, Set<String> reducedNames) {
        Iterator<Map.Entry<String, Map<String, QueueData>>> topics = topicQueueTable.entrySet().iterator();
        while (topics.hasNext()) {
            Map.Entry<String, Map<String, QueueData>> topic = topics.next();
            Map<String, QueueData> queues = topic.getValue();
            for (String name : removedNames) {
                if (queues.remove(name) != null) {
                    LOG.info("removed queue data of broker {} from topic {}", name, topic.getKey());
                }
            }
            for (String name : reducedNames) {
                BrokerSet set = brokerAddrTable.get(name);
                QueueData queueData = queues.get(name);
                if (set != null && queueData != null && set.enableActingMaster() && !set.addrs().containsKey(0L)) {
                    queues.put(name, queueData.withPerm(queueData.perm() & ~Perm.WRITE));
                }
            }
            if (queues.isEmpty()) {
                LOG.info("topic {} has no queue data left; removed", topic.getKey());
                topics.remove();
            }
        }
    }

    /** The removal for the broker registered at {@code key}, or null when no broker set lists it. */
    Removal removalFor(BrokerAddrKey key) {
        for (BrokerSet set : brokerAddrTable.values()) {
            if (!set.cluster().equals(key.clusterName())) {
                continue;
            }
            for (Map.Entry<Long, String> entry : set.addrs().entrySet()) {
                if (entry.getValue().equals(key.brokerAddr())) {
                    return new Removal(key.clusterName(), key.brokerAddr(), set.brokerName(), entry.getKey());
                }
            }
        }
        return null;
    }

    /** Removals for every live broker registered over {@code channel}. */
    List<Removal> removalsForChannel(Object channel) {
        List<Removal> removals = new ArrayList<>();
        for (Map.Entry<BrokerAddrKey, BrokerLiveInfo> entry : liveTable.entrySet()) {
            if (channel.equals(entry.getValue().channel())) {
                removals.add(removalOrBare(entry.getKey()));
            }
        }
        return removals;
    }

    /** The removal for {@code key}, or one that only drops its live entry. */
    Removal removalOrBare(BrokerAddrKey key) {
        Removal removal = removalFor(key);
        return removal != null ? removal : new Removal(key.clusterName(), key.brokerAddr(), "", -1);
    }

    /** Stores a topic's queues of one broker set, replacing what differs. */
    void putQueueData(String topic, QueueData queueData) {
        Map<String, QueueData> queues = topicQueueTable.computeIfAbsent(topic, t -> new TreeMap<>());
        QueueData old = queues.put(queueData.brokerName(), queueData);
        if (old == null) {
            LOG.info("new topic route {}: {}", topic, queueData);
        } else if (!old.equals(queueData)) {
            LOG.info("topic route {} changed: {} -> {}", topic, old, queueData);
        }
    }
}
