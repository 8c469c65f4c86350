package org.modmq.compat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;

/**
 * Two masters ({@code broker-a}, {@code broker-b}) with one slave each ({@code broker-a-s},
 * {@code broker-b-s}) and one name server, all from the distribution as processes on free loopback
 * ports, with a stock admin client. The masters run {@code brokerRole} = the given master role, all
 * four the given {@code haStrategy}; slaves learn their master's HA address from the name server.
 * Brokers can be killed (SIGKILL) and restarted on the same ports and stores. {@link #close()} stops
 * everything still running (idempotent). Used from test threads only.
 */
final class ReplicatedCluster implements AutoCloseable {

    static final List<String> BROKER_NAMES = List.of("broker-a", "broker-b");
    static final String CLUSTER = "CompatCluster";
    static final Duration REGISTRATION_TIMEOUT = Duration.ofSeconds(30);
    static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(30);

    private final Distribution distribution;
    private final Path workDir;
    private final ChildProcess namesrv;
    private final Map<String, Distribution.BrokerConf> masterConfs = new LinkedHashMap<>();
    private final Map<String, Distribution.BrokerConf> slaveConfs = new LinkedHashMap<>();
    private final Map<String, ChildProcess> masters = new LinkedHashMap<>();
    private final Map<String, ChildProcess> slaves = new LinkedHashMap<>();
    private StockAdmin admin;

    private ReplicatedCluster(Distribution distribution, Path workDir, ChildProcess namesrv) {
        this.distribution = distribution;
        this.workDir = workDir;
        this.namesrv = namesrv;
    }

    /**
     * Starts the name server, both masters (in parallel) and, once the masters are registered, both
     * slaves; returns when the name server lists all four under ids 0 and 1.
     *
     * @param masterRole {@code SYNC_MASTER} or {@code ASYNC_MASTER}
     * @param haStrategy {@code pull} or {@code push}
     */
    static ReplicatedCluster start(Path workDir, String masterRole, String haStrategy) throws Exception {
        Objects.requireNonNull(masterRole, "masterRole");
        Objects.requireNonNull(haStrategy, "haStrategy");
        Distribution distribution = Distribution.located();
        ChildProcess namesrv = distribution.startNamesrv(workDir);
        ReplicatedCluster cluster = new ReplicatedCluster(distribution, workDir, namesrv);
        try {
            cluster.admin = StockAdmin.start(namesrv.address());
            for (String name : BROKER_NAMES) {
                cluster.masterConfs.put(name, distribution.brokerConf(workDir, name, name,
                        List.of(namesrv.address()), Map.of("brokerRole", masterRole, "haStrategy", haStrategy,
                                "autoCreateTopicEnable", "false")));
                cluster.slaveConfs.put(name, distribution.brokerConf(workDir, name + "-s", name,
                        List.of(namesrv.address()), Map.of("brokerRole", "SLAVE", "brokerId", "1",
                                "haStrategy", haStrategy, "autoCreateTopicEnable", "false")));
            }
            cluster.masters.putAll(cluster.startAll(cluster.masterConfs));
            for (String name : BROKER_NAMES) {
                cluster.awaitRegistered(name, 0L, cluster.masterAddr(name));
            }
            cluster.slaves.putAll(cluster.startAll(cluster.slaveConfs));
            for (String name : BROKER_NAMES) {
                cluster.awaitRegistered(name, 1L, cluster.slaveAddr(name));
            }
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    /** Starts one broker per configuration at once (JVM start-up dominates) and waits for all ports. */
    private Map<String, ChildProcess> startAll(Map<String, Distribution.BrokerConf> confs) throws Exception {
        ExecutorService starter = Executors.newFixedThreadPool(confs.size());
        try {
            Map<String, Future<ChildProcess>> starting = new LinkedHashMap<>();
            confs.forEach((name, conf) -> starting.put(name,
                    starter.submit(() -> distribution.startBroker(workDir, conf))));
            Map<String, ChildProcess> started = new LinkedHashMap<>();
            List<Throwable> failures = new ArrayList<>();
            for (Map.Entry<String, Future<ChildProcess>> entry : starting.entrySet()) {
                try {
                    started.put(entry.getKey(), entry.getValue().get(
                            Distribution.START_TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    failures.add(e.getCause());
                } catch (TimeoutException e) {
                    failures.add(e);
                }
            }
            if (!failures.isEmpty()) {
                started.values().forEach(ChildProcess::close);
                AssertionError failure = new AssertionError("broker start failed: " + failures.get(0), failures.get(0));
                failures.stream().skip(1).forEach(failure::addSuppressed);
                throw failure;
            }
            return started;
        } finally {
            starter.shutdownNow();
        }
    }

    String namesrvAddr() {
        return namesrv.address();
    }

    StockAdmin admin() {
        return admin;
    }

    String masterAddr(String brokerName) {
        return masterConfs.get(brokerName).address();
    }

    String slaveAddr(String brokerName) {
        return slaveConfs.get(brokerName).address();
    }

    ChildProcess master(String brokerName) {
        return masters.get(brokerName);
    }

    ChildProcess slave(String brokerName) {
        return slaves.get(brokerName);
    }

    /**
     * Creates {@code topic} with {@code queues} read and write queues on both masters
     * (UPDATE_AND_CREATE_TOPIC, what {@code mqadmin updateTopic -c} sends to each master) and waits
     * until the name server routes it on both broker names.
     */
    void createTopic(String topic, int queues) throws Exception {
        for (String name : BROKER_NAMES) {
            admin.ext().createAndUpdateTopicConfig(masterAddr(name), new TopicConfig(topic, queues, queues, 6));
        }
        Await.until("route of " + topic + " on both masters", REGISTRATION_TIMEOUT, () -> {
            TopicRouteData route = route(topic);
            return route != null && route.getQueueDatas().size() == BROKER_NAMES.size()
                    && route.getQueueDatas().stream().allMatch(q -> q.getWriteQueueNums() == queues);
        });
    }

    /** The topic's route from the name server, or null while there is none. */
    TopicRouteData route(String topic) {
        try {
            return admin.ext().examineTopicRouteInfo(topic);
        } catch (Exception e) {
            return null;
        }
    }

    /** The broker's CommitLog end (next byte to write) from GET_BROKER_RUNTIME_INFO {@code commitLogMaxOffset}. */
    long commitLogMaxOffset(String brokerAddr) throws Exception {
        return Long.parseLong(admin.ext().fetchBrokerRuntimeStats(brokerAddr).getTable().get("commitLogMaxOffset"));
    }

    /** Waits until the slave's CommitLog ends where its master's does (nothing is being sent meanwhile). */
    void awaitSlaveCaughtUp(String brokerName, Duration timeout) {
        Await.until(brokerName + " slave at its master's commitLogMaxOffset", timeout, () -> {
            try {
                long master = commitLogMaxOffset(masterAddr(brokerName));
                return master > 0 && master == commitLogMaxOffset(slaveAddr(brokerName));
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** QUERY_CONSUMER_OFFSET sent to {@code brokerAddr} (a master or a slave); throws while it has none. */
    long queryConsumerOffset(String brokerAddr, String group, String topic, int queueId) throws Exception {
        QueryConsumerOffsetRequestHeader header = new QueryConsumerOffsetRequestHeader();
        header.setConsumerGroup(group);
        header.setTopic(topic);
        header.setQueueId(queueId);
        return clientApi().queryConsumerOffset(brokerAddr, header, 3_000);
    }

    /** The stock client API of the admin's client instance, for calls aimed at one broker address. */
    MQClientAPIImpl clientApi() {
        return admin.ext().getDefaultMQAdminExtImpl().getMqClientInstance().getMQClientAPIImpl();
    }

    /** SIGKILLs the slave of {@code brokerName}. */
    void killSlave(String brokerName) {
        slaves.get(brokerName).kill();
    }

    /** SIGKILLs the master of {@code brokerName}. */
    void killMaster(String brokerName) {
        masters.get(brokerName).kill();
    }

    /** Starts the (stopped) slave of {@code brokerName} again on its port and store; waits until it is registered. */
    void restartSlave(String brokerName) {
        slaves.put(brokerName, slaves.get(brokerName).restart(Distribution.START_TIMEOUT));
        awaitRegistered(brokerName, 1L, slaveAddr(brokerName));
    }

    /** Waits until the name server lists {@code address} under {@code brokerId} for {@code brokerName}. */
    void awaitRegistered(String brokerName, long brokerId, String address) {
        Await.until(brokerName + " id " + brokerId + " registered", REGISTRATION_TIMEOUT, () -> {
            try {
                BrokerData data = admin.ext().examineBrokerClusterInfo().getBrokerAddrTable().get(brokerName);
                return data != null && address.equals(data.getBrokerAddrs().get(brokerId));
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** The route's BrokerData of {@code brokerName}, or null. */
    static BrokerData brokerData(TopicRouteData route, String brokerName) {
        return route.getBrokerDatas().stream().filter(b -> b.getBrokerName().equals(brokerName)).findFirst()
                .orElse(null);
    }

    /** The route's QueueData of {@code brokerName}, or null. */
    static QueueData queueData(TopicRouteData route, String brokerName) {
        return route.getQueueDatas().stream().filter(q -> q.getBrokerName().equals(brokerName)).findFirst()
                .orElse(null);
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close();
            admin = null;
        }
        // Slaves before masters, so that no slave logs a lost master while stopping; each group in parallel.
        closeAll(slaves.values());
        closeAll(masters.values());
        namesrv.close();
    }

    private static void closeAll(Iterable<ChildProcess> processes) {
        try (ClientShutdowns stopping = new ClientShutdowns()) {
            processes.forEach(process -> stopping.start(process::close));
        }
    }

    @Override
    public String toString() {
        return "replicated cluster[namesrv " + namesrvAddr() + ", masters " + masterConfs.keySet() + ", in "
                + workDir + "]";
    }
}
