package org.modmq.namesrv.route;

import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.modmq.namesrv.body.QueueData;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.Perm;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one {@code REGISTER_BROKER} to the route state, in the order of the steps of
 * docs/protocol.md section 3.2. Stateless apart from its settings; the caller holds the write lock.
 */
final class BrokerRegistrar {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerRegistrar.class);
    private static final long MASTER_ID = 0L;

    private final long defaultTimeoutMillis;
    private final boolean deleteTopicWithBrokerRegistration;

    BrokerRegistrar(long defaultTimeoutMillis, boolean deleteTopicWithBrokerRegistration) {
        this.defaultTimeoutMillis = defaultTimeoutMillis;
        this.deleteTopicWithBrokerRegistration = deleteTopicWithBrokerRegistration;
    }

    RegisterOutcome register(RouteState state, BrokerRegistration reg, long nowMillis) {
        Map<String, TopicConfig> topics = reg.topicConfig().topicConfigTable() == null
                ? Map.of() : reg.topicConfig().topicConfigTable();
        DataVersion version = Objects.requireNonNullElse(reg.topicConfig().dataVersion(), DataVersion.ZERO);
        BrokerAddrKey key = new BrokerAddrKey(reg.clusterName(), reg.brokerAddr());

        // step 5, checked first so that a refused request changes nothing: a single-topic increment
        // must not precede the full registration of this broker id (steps 2-4 cannot make the id known)
        BrokerSet existing = state.brokerAddrTable.get(reg.brokerName());
        if ((existing == null || !existing.addrs().containsKey(reg.brokerId())) && topics.size() == 1) {
            LOG.warn("refusing single-topic registration of {} ({} id {}) before its full registration",
                    reg.brokerAddr(), reg.brokerName(), reg.brokerId());
            return RegisterOutcome.of(RegisterOutcome.Status.INCREMENT_BEFORE_FULL_REGISTRATION);
        }

        // step 2: cluster membership and the broker set
        state.clusterAddrTable.computeIfAbsent(reg.clusterName(), c -> new TreeSet<>()).add(reg.brokerName());
        BrokerSet set = state.brokerAddrTable.get(reg.brokerName());
        boolean firstRegistration = false;
        if (set == null) {
            firstRegistration = true;
            set = new BrokerSet(reg.clusterName(), reg.brokerName());
            state.brokerAddrTable.put(reg.brokerName(), set);
        }
        boolean preFiveBroker = reg.enableActingMaster() == null;
        set.update(reg.zoneName(), !preFiveBroker && reg.enableActingMaster());
        Map<Long, String> addrs = set.addrs();

        // step 3: one address holds one id (a promoted slave re-registers as id 0)
        addrs.entrySet().removeIf(e -> e.getValue().equals(reg.brokerAddr()) && e.getKey() != reg.brokerId());

        // step 4: a different address already holds this id with a newer state version
        String holder = addrs.get(reg.brokerId());
        if (holder != null && !holder.equals(reg.brokerAddr())) {
            BrokerLiveInfo holderLive = state.liveTable.get(new BrokerAddrKey(reg.clusterName(), holder));
            if (holderLive != null && holderLive.dataVersion().stateVersion() > version.stateVersion()) {
                LOG.warn("ignoring registration of {} as {} id {}: {} holds that id with state version {} > {}",
                        reg.brokerAddr(), reg.brokerName(), reg.brokerId(), holder,
                        holderLive.dataVersion().stateVersion(), version.stateVersion());
                state.liveTable.remove(key);
                return RegisterOutcome.of(RegisterOutcome.Status.STALE_STATE_VERSION);
            }
        }

        // step 6
        String previous = addrs.put(reg.brokerId(), reg.brokerAddr());
        if (reg.brokerId() == MASTER_ID && !reg.brokerAddr().equals(previous) && state.liveTable.containsKey(key)) {
            // A known broker (a replica until now) registers as master: the moment a failover completes here.
            LOG.info("broker {} of {} (cluster {}) is now master (id 0), state version {}", reg.brokerAddr(),
                    reg.brokerName(), reg.clusterName(), version.stateVersion());
        }
        firstRegistration = firstRegistration || previous == null || previous.isEmpty();

        // step 7: queue data from the master, or from the lowest slave of a 5.x set without master
        boolean master = reg.brokerId() == MASTER_ID;
        boolean primeSlave = !preFiveBroker && !master && reg.brokerId() == set.addrs().firstKey();
        if (master || primeSlave) {
            BrokerLiveInfo oldLive = state.liveTable.get(key);
            boolean versionChanged = oldLive == null || !oldLive.dataVersion().equals(version);
            if (deleteTopicWithBrokerRegistration && topics.size() > 1) {
                dropUnlistedTopics(state, reg.brokerName(), topics);
            }
            for (Map.Entry<String, TopicConfig> entry : topics.entrySet()) {
                TopicConfig topic = entry.getValue();
                if (topic == null) {
                    continue;
                }
                String name = topic.topicName() != null ? topic.topicName() : entry.getKey();
                if (firstRegistration || versionChanged || lacksQueueData(state, name, reg.brokerName())) {
                    int perm = topic.perm();
                    if (primeSlave && set.enableActingMaster()) {
                        perm &= ~Perm.WRITE;
                    }
                    state.putQueueData(name, new QueueData(reg.brokerName(), perm,
                            topic.readQueueNums(), topic.topicSysFlag(), topic.writeQueueNums()));
                }
            }
        }

        // step 8: liveness
        long timeout = reg.timeoutMillis() != null ? reg.timeoutMillis() : defaultTimeoutMillis;
        BrokerLiveInfo before = state.liveTable.put(key,
                new BrokerLiveInfo(nowMillis, timeout, version, reg.channel(), reg.haServerAddr()));
        if (before == null) {
            LOG.info("new broker registered: {} {} id {} of cluster {}, HA {}", reg.brokerName(), reg.brokerAddr(),
                    reg.brokerId(), reg.clusterName(), reg.haServerAddr());
        }
        if (reg.filterServerList() != null) {
            if (reg.filterServerList().isEmpty()) {
                state.filterServerTable.remove(key);
            } else {
                state.filterServerTable.put(key, reg.filterServerList());
            }
        }

        // step 9: a slave learns its live master
        if (!master) {
            String masterAddr = addrs.get(MASTER_ID);
            if (masterAddr != null) {
                BrokerLiveInfo masterLive = state.liveTable.get(new BrokerAddrKey(reg.clusterName(), masterAddr));
                if (masterLive != null) {
                    return new RegisterOutcome(RegisterOutcome.Status.REGISTERED, masterAddr,
                            masterLive.haServerAddr());
                }
            }
        }
        return RegisterOutcome.of(RegisterOutcome.Status.REGISTERED);
    }

    private static boolean lacksQueueData(RouteState state, String topic, String brokerName) {
        Map<String, QueueData> queues = state.topicQueueTable.get(topic);
        return queues == null || !queues.containsKey(brokerName);
    }

    private static void dropUnlistedTopics(RouteState state, String brokerName, Map<String, TopicConfig> listed) {
        Set<String> names = new TreeSet<>();
        for (Map.Entry<String, TopicConfig> entry : listed.entrySet()) {
            TopicConfig topic = entry.getValue();
            names.add(topic != null && topic.topicName() != null ? topic.topicName() : entry.getKey());
        }
        Iterator<Map.Entry<String, Map<String, QueueData>>> it = state.topicQueueTable.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Map<String, QueueData>> entry = it.next();
            if (!names.contains(entry.getKey()) && entry.getValue().remove(brokerName) != null) {
                LOG.info("topic {} no longer listed by broker {}; its queue data removed", entry.getKey(), brokerName);
                if (entry.getValue().isEmpty()) {
                    it.remove();
                }
            }
        }
    }
}
