package org.modmq.interop;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.body.KVTable;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * The stock admin client ({@code DefaultMQAdminExt}) pointed at one name server: creates topics and
 * reads a broker's {@code commitLogMaxOffset} from GET_BROKER_RUNTIME_INFO. Used from test threads;
 * {@link #close()} shuts the client down and is idempotent.
 */
final class StockAdmin implements AutoCloseable {

    private static final long ERROR_RETRY_MILLIS = 5_000;

    private final DefaultMQAdminExt admin;
    private boolean closed;

    StockAdmin(String namesrvAddr) {
        admin = new DefaultMQAdminExt(5_000);
        admin.setNamesrvAddr(Objects.requireNonNull(namesrvAddr, "namesrvAddr"));
        admin.setInstanceName("interop-admin-" + System.nanoTime());
        try {
            admin.start();
        } catch (MQClientException e) {
            throw new IllegalStateException("cannot start the stock admin client", e);
        }
    }

    /** Creates (or updates) {@code topic} with {@code queues} read and write queues on the broker at {@code brokerAddr}. */
    void createTopic(String brokerAddr, String topic, int queues) {
        TopicConfig config = new TopicConfig(topic, queues, queues, 6);
        try {
            admin.createAndUpdateTopicConfig(brokerAddr, config);
        } catch (RemotingException | MQBrokerException | MQClientException e) {
            throw new IllegalStateException("cannot create " + topic + " on " + brokerAddr, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating " + topic, e);
        }
    }

    /**
     * The broker's {@code commitLogMaxOffset}; throws while it does not answer. An error answer is asked
     * again for up to {@value #ERROR_RETRY_MILLIS} ms: a stock broker answers GET_BROKER_RUNTIME_INFO with
     * SYSTEM_ERROR ({@code NoSuchElementException} from its stats) until its first stats sample is taken.
     */
    long commitLogMaxOffset(String brokerAddr) {
        KVTable table;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ERROR_RETRY_MILLIS);
        try {
            while (true) {
                try {
                    table = admin.fetchBrokerRuntimeStats(brokerAddr);
                    break;
                } catch (MQBrokerException e) {
                    if (System.nanoTime() - deadline > 0) {
                        throw e;
                    }
                    Thread.sleep(100);
                }
            }
        } catch (RemotingException | MQBrokerException e) {
            throw new IllegalStateException("no runtime info from " + brokerAddr, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking " + brokerAddr, e);
        }
        String value = table.getTable().get("commitLogMaxOffset");
        if (value == null) {
            throw new IllegalStateException(brokerAddr + " reports no commitLogMaxOffset: " + table.getTable());
        }
        return Long.parseLong(value);
    }

    /** The names of the topics the broker at {@code brokerAddr} holds (GET_ALL_TOPIC_CONFIG). */
    Set<String> topics(String brokerAddr) {
        try {
            return Set.copyOf(admin.getAllTopicConfig(brokerAddr, 5_000).getTopicConfigTable().keySet());
        } catch (RemotingException | MQBrokerException e) {
            throw new IllegalStateException("no topic configs from " + brokerAddr, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking " + brokerAddr, e);
        }
    }

    /** The brokers of broker set {@code brokerName} (brokerId to address) registered with the name server now. */
    Map<Long, String> registeredBrokers(String brokerName) {
        ClusterInfo info;
        try {
            info = admin.examineBrokerClusterInfo();
        } catch (RemotingException | MQBrokerException e) {
            throw new IllegalStateException("no cluster info", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking for cluster info", e);
        }
        BrokerData data = info.getBrokerAddrTable() == null ? null : info.getBrokerAddrTable().get(brokerName);
        return data == null ? Map.of() : new TreeMap<>(data.getBrokerAddrs());
    }

    /** The brokers of {@code topic}'s route (brokerId to address) as the name server answers now. */
    Map<Long, String> routeBrokers(String topic) {
        TopicRouteData route;
        try {
            route = admin.examineTopicRouteInfo(topic);
        } catch (RemotingException | MQClientException e) {
            throw new IllegalStateException("no route for " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking for " + topic, e);
        }
        Map<Long, String> brokers = new TreeMap<>();
        for (BrokerData data : route.getBrokerDatas()) {
            brokers.putAll(data.getBrokerAddrs());
        }
        return brokers;
    }

    /** The controllers' view of {@code brokerName} (CONTROLLER_GET_SYNC_STATE_DATA via the leader), or null. */
    org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo.ReplicasInfo syncStateData(String controllerAddr,
                                                                                               String brokerName) {
        try {
            return admin.getInSyncStateData(controllerAddr, java.util.List.of(brokerName)).getReplicasInfoTable()
                    .get(brokerName);
        } catch (RemotingException | MQBrokerException e) {
            throw new IllegalStateException("no sync-state data from " + controllerAddr, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking " + controllerAddr, e);
        }
    }

    /**
     * The broker's epoch history as {@code epoch-startOffset} strings, oldest first
     * (GET_BROKER_EPOCH_CACHE, 1007, what {@code mqadmin getBrokerEpoch} shows).
     */
    java.util.List<String> epochs(String brokerAddr) {
        try {
            return admin.getBrokerEpochCache(brokerAddr).getEpochList().stream()
                    .map(entry -> entry.getEpoch() + "-" + entry.getStartOffset()).toList();
        } catch (RemotingException | MQBrokerException e) {
            throw new IllegalStateException("no epoch cache from " + brokerAddr, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking " + brokerAddr, e);
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            admin.shutdown();
        }
    }
}
