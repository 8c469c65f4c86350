package org.modmq.compat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.header.controller.GetMetaDataResponseHeader;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;
import org.modmq.testkit.process.FreePort;

/**
 * Three controllers ({@code bin/mqcontroller}, one Raft group), one name server and one broker set of three
 * brokers in controller mode with {@code allAckInSyncStateSet=true}, all from the distribution as processes
 * on free loopback ports, plus a stock admin client. Each process has its own directory under the work
 * directory (configuration, output, {@code MODMQ_LOG_DIR}, store). Brokers and controllers can be killed
 * (SIGKILL), paused (SIGSTOP) and resumed, and brokers restarted on the same ports and store.
 * {@link #close()} resumes what is paused and stops everything still running (idempotent). Used from the
 * test thread.
 */
final class ControllerCluster implements AutoCloseable {

    static final String CLUSTER = "FailoverCluster";
    static final String BROKER_SET = "broker-f";
    static final List<String> PEERS = List.of("n0", "n1", "n2");
    static final int BROKERS = 3;
    /** JVM start-up of seven processes on a loaded 2-core machine, the first Raft election, the registrations. */
    static final Duration HEALTHY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration PARALLEL_START_TIMEOUT = Distribution.START_TIMEOUT.plusSeconds(30);

    private final Distribution distribution = Distribution.located();
    private final Path workDir;
    private final Map<String, ChildProcess> controllers = new LinkedHashMap<>();
    private final Map<String, Distribution.BrokerConf> brokerConfs = new LinkedHashMap<>();
    private final Map<String, ChildProcess> brokers = new LinkedHashMap<>();
    private final Set<ChildProcess> paused = ConcurrentHashMap.newKeySet();
    /** Stock client shutdowns that need not hold the test up; waited for by {@link #close()}. */
    private final ClientShutdowns background = new ClientShutdowns();
    private ChildProcess namesrv;
    private StockAdmin admin;

    private ControllerCluster(Path workDir) {
        this.workDir = workDir;
    }

    /**
     * Starts the controllers and the name server, then the three brokers (all at once within each step) with
     * {@code haStrategy} and {@code brokerOverrides}; returns once they are started (see {@link #awaitHealthy}).
     */
    static ControllerCluster start(Path workDir, String haStrategy, Map<String, String> brokerOverrides)
            throws Exception {
        return start(workDir, haStrategy, brokerOverrides, null);
    }

    /** As {@link #start(Path, String, Map)}, each broker reaching the controllers through {@code links}. */
    static ControllerCluster start(Path workDir, String haStrategy, Map<String, String> brokerOverrides,
                                   ControllerLinks links) throws Exception {
        ControllerCluster cluster = new ControllerCluster(workDir);
        try {
            cluster.startControllersAndNamesrv();
            for (int i = 0; i < BROKERS; i++) {
                Path dir = workDir.resolve("b" + i);
                Map<String, String> settings = new LinkedHashMap<>();
                settings.put("brokerClusterName", CLUSTER);
                settings.put("enableControllerMode", "true");
                settings.put("controllerAddr", links == null ? cluster.controllerAddr()
                        : links.addressesFor(i, cluster.controllerAddresses()));
                settings.put("allAckInSyncStateSet", "true");
                settings.put("haStrategy", haStrategy);
                settings.put("autoCreateTopicEnable", "false");
                settings.putAll(brokerOverrides);
                Distribution.BrokerConf conf = cluster.distribution.brokerConf(Files.createDirectories(dir), "b" + i,
                        BROKER_SET, List.of(cluster.namesrv.address()), settings);
                cluster.brokerConfs.put(conf.address(), conf);
                if (links != null) {
                    links.name(i, conf.address());
                }
            }
            cluster.brokers.putAll(inParallel(cluster.brokerConfs, (address, conf) ->
                    () -> cluster.distribution.startBroker(conf.storeDir().getParent(), conf)));
            cluster.admin = StockAdmin.start(cluster.namesrv.address());
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    private void startControllersAndNamesrv() throws Exception {
        int[] ports = FreePort.pick(2 * PEERS.size());
        List<String> peers = new ArrayList<>();
        List<String> raft = new ArrayList<>();
        for (int i = 0; i < PEERS.size(); i++) {
            peers.add(PEERS.get(i) + "-127.0.0.1:" + ports[2 * i]);
            raft.add(PEERS.get(i) + "-127.0.0.1:" + ports[2 * i + 1]);
        }
        Map<String, Supplier<ChildProcess>> starts = new LinkedHashMap<>();
        for (int i = 0; i < PEERS.size(); i++) {
            String id = PEERS.get(i);
            Path dir = Files.createDirectories(workDir.resolve("c-" + id));
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("controllerDLegerGroup", "compat-failover");
            settings.put("controllerDLegerPeers", String.join(";", peers));
            settings.put("controllerRaftPeers", String.join(";", raft));
            settings.put("controllerDLegerSelfId", id);
            settings.put("controllerStorePath", dir.resolve("store").toString());
            int port = ports[2 * i];
            starts.put(id, () -> distribution.startControllerPeer(dir, "controller-" + id, settings, port));
        }
        Path namesrvDir = Files.createDirectories(workDir.resolve("namesrv"));
        starts.put("namesrv", () -> distribution.startNamesrv(namesrvDir));
        Map<String, ChildProcess> started = inParallel(starts, (name, start) -> start);
        namesrv = started.remove("namesrv");
        controllers.putAll(started);
    }

    /**
     * Runs one start per entry at once (JVM start-up dominates) and waits for all; if one fails, those
     * that started are stopped and the first failure is thrown.
     */
    private static <V> Map<String, ChildProcess> inParallel(Map<String, V> items,
                                                           BiFunction<String, V, Supplier<ChildProcess>> start)
            throws InterruptedException {
        ExecutorService starter = Executors.newFixedThreadPool(items.size());
        try {
            Map<String, Future<ChildProcess>> starting = new LinkedHashMap<>();
            items.forEach((name, item) -> starting.put(name, starter.submit(() -> start.apply(name, item).get())));
            Map<String, ChildProcess> started = new LinkedHashMap<>();
            List<Throwable> failures = new ArrayList<>();
            for (Map.Entry<String, Future<ChildProcess>> entry : starting.entrySet()) {
                try {
                    started.put(entry.getKey(), entry.getValue().get(PARALLEL_START_TIMEOUT.toSeconds(),
                            TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    failures.add(e.getCause());
                } catch (TimeoutException e) {
                    failures.add(e);
                }
            }
            if (!failures.isEmpty()) {
                started.values().forEach(ChildProcess::close);
                AssertionError failure = new AssertionError("start failed: " + failures.get(0), failures.get(0));
                failures.stream().skip(1).forEach(failure::addSuppressed);
                throw failure;
            }
            return started;
        } finally {
            starter.shutdownNow();
        }
    }

    /**
     * Waits until the set is healthy: the name server lists three brokers of the set with a master (id 0),
     * the controllers' SyncStateSet holds all three with that master, {@code topic} exists on every broker
     * (so that whichever becomes master knows it) and is routed, one message is stored, and every replica's
     * CommitLog ends where the master's does.
     *
     * @return the master's address
     */
    String awaitHealthy(String topic, int queues) throws Exception {
        long deadline = System.nanoTime() + HEALTHY_TIMEOUT.toNanos();
        Await.until("three brokers of " + BROKER_SET + " with a master at the name server", left(deadline),
                () -> brokerAddrs().size() == BROKERS && brokerAddrs().containsKey(0L));
        Await.until("the SyncStateSet to hold all three brokers with the name server's master", left(deadline), () -> {
            BrokerReplicasInfo.ReplicasInfo info = syncState();
            return info != null && info.getInSyncReplicas().size() == BROKERS
                    && info.getMasterAddress().equals(master());
        });
        String master = master();
        createEverywhere(topic, queues, master, left(deadline));
        Await.until("route of " + topic, left(deadline), () -> {
            TopicRouteData route = route(topic);
            return route != null && !route.getQueueDatas().isEmpty()
                    && route.getQueueDatas().get(0).getWriteQueueNums() == queues;
        });
        DefaultMQProducer producer = StockClients.producer(namesrvAddr(), "compat_failover_warmup");
        try {
            Await.until("a first message stored on " + master, left(deadline), () -> {
                try {
                    return producer.send(StockClients.message(topic, "warmup", "warmup", "warmup"))
                            .getSendStatus() == SendStatus.SEND_OK;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        } finally {
            background.start(producer::shutdown);
        }
        awaitReplicasCaughtUp(master, left(deadline));
        createEverywhere(topic, queues, master, left(deadline));
        return master;
    }

    /**
     * Creates {@code topic} on the master first, then on the replicas, until every broker lists it. A replica
     * copies the master's topic table every 10 s and drops what the master lacks: a topic created on a replica
     * before the master has it vanishes again, and a replica that became master without it would take it
     * from the whole set.
     */
    private void createEverywhere(String topic, int queues, String master, Duration timeout) {
        List<String> order = new ArrayList<>(brokerConfs.keySet());
        order.remove(master);
        order.add(0, master);
        Await.until(topic + " listed by every broker", timeout, () -> {
            boolean everywhere = true;
            for (String address : order) {
                try {
                    if (!admin.ext().getAllTopicConfig(address, 3_000).getTopicConfigTable().containsKey(topic)) {
                        everywhere = false;
                        admin.ext().createAndUpdateTopicConfig(address, new TopicConfig(topic, queues, queues, 6));
                    }
                } catch (Exception e) {
                    throw new IllegalStateException("topic " + topic + " on " + address, e);
                }
            }
            return everywhere;
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

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
    }

    /** Waits until every running broker other than {@code master} has a CommitLog ending where the master's does. */
    void awaitReplicasCaughtUp(String master, Duration timeout) {
        Await.until("replicas at the CommitLog end of " + master, timeout, () -> {
            long end = commitLogMaxOffset(master);
            return end > 0 && brokers.entrySet().stream().filter(b -> !b.getKey().equals(master) && b.getValue().isAlive())
                    .allMatch(b -> commitLogMaxOffset(b.getKey()) == end);
        });
    }

    String namesrvAddr() {
        return namesrv.address();
    }

    StockAdmin admin() {
        return admin;
    }

    MQClientAPIImpl clientApi() {
        return admin.ext().getDefaultMQAdminExtImpl().getMqClientInstance().getMQClientAPIImpl();
    }

    /** Every controller's remoting address, {@code ;}-separated (the brokers' {@code controllerAddr}). */
    String controllerAddr() {
        return String.join(";", controllerAddresses());
    }

    List<String> controllerAddresses() {
        return controllers.values().stream().map(ChildProcess::address).toList();
    }

    /** The broker set's entries at the name server, broker id to address; empty while there are none. */
    Map<Long, String> brokerAddrs() {
        try {
            BrokerData data = admin.ext().examineBrokerClusterInfo().getBrokerAddrTable().get(BROKER_SET);
            return data == null ? Map.of() : Map.copyOf(data.getBrokerAddrs());
        } catch (Exception e) {
            throw new IllegalStateException("cluster info from " + namesrvAddr() + " not available", e);
        }
    }

    /** The master (id 0) at the name server, or null. */
    String master() {
        return brokerAddrs().get(0L);
    }

    /** Waits until the name server lists a master of the set other than {@code oldMaster}; returns it. */
    String awaitNewMaster(String oldMaster, Duration timeout) {
        return Await.value("a master other than " + oldMaster + " at the name server", timeout, () -> {
            String master = master();
            return master != null && !master.equals(oldMaster) ? master : null;
        });
    }

    /** Waits until the name server lists {@code address} under an id other than 0; returns that id. */
    long awaitReplica(String address, Duration timeout) {
        return Await.value(address + " registered as a replica", timeout, () -> brokerAddrs().entrySet().stream()
                .filter(e -> e.getValue().equals(address) && e.getKey() != 0L).map(Map.Entry::getKey).findFirst()
                .orElse(null));
    }

    /** The controllers' view of the set (from the leader, found with 1005), or null while none answers. */
    BrokerReplicasInfo.ReplicasInfo syncState() {
        for (ChildProcess controller : controllers.values()) {
            if (!controller.isAlive() || paused.contains(controller)) {
                continue;
            }
            try {
                BrokerReplicasInfo info = admin.ext().getInSyncStateData(controller.address(), List.of(BROKER_SET));
                return info == null ? null : info.getReplicasInfoTable().get(BROKER_SET);
            } catch (Exception e) {
                // another peer may answer
            }
        }
        return null;
    }

    /** The controller leader's remoting address as a running peer reports it (1005), or null. */
    String controllerLeader() {
        for (ChildProcess controller : controllers.values()) {
            if (!controller.isAlive()) {
                continue;
            }
            try {
                GetMetaDataResponseHeader meta = admin.ext().getControllerMetaData(controller.address());
                if (meta.getControllerLeaderAddress() != null && !meta.getControllerLeaderAddress().isEmpty()) {
                    return meta.getControllerLeaderAddress();
                }
            } catch (Exception e) {
                // another peer may answer
            }
        }
        return null;
    }

    /** The controller process listening on {@code address}. */
    ChildProcess controller(String address) {
        return controllers.values().stream().filter(c -> c.address().equals(address)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no controller at " + address));
    }

    /** Every broker's address, in start order. */
    List<String> brokerAddresses() {
        return List.copyOf(brokerConfs.keySet());
    }

    ChildProcess broker(String address) {
        return Objects.requireNonNull(brokers.get(address), () -> "no broker at " + address);
    }

    Distribution.BrokerConf brokerConf(String address) {
        return Objects.requireNonNull(brokerConfs.get(address), () -> "no broker at " + address);
    }

    /** The broker's CommitLog end from GET_BROKER_RUNTIME_INFO {@code commitLogMaxOffset}. */
    long commitLogMaxOffset(String address) {
        try {
            return Long.parseLong(admin.ext().fetchBrokerRuntimeStats(address).getTable().get("commitLogMaxOffset"));
        } catch (Exception e) {
            throw new IllegalStateException("runtime info of " + address + " not available", e);
        }
    }

    /** Starts the (stopped) broker at {@code address} again with the same configuration and store. */
    void restartBroker(String address) {
        brokers.put(address, broker(address).restart(Distribution.START_TIMEOUT));
    }

    /** SIGSTOPs {@code process}; {@link #resume} or {@link #close()} sends SIGCONT. */
    void pause(ChildProcess process) {
        paused.add(process);
        PauseSignal.STOP.send(process);
    }

    void resume(ChildProcess process) {
        PauseSignal.CONT.send(process);
        paused.remove(process);
    }

    @Override
    public void close() {
        background.close();
        if (admin != null) {
            admin.close();
            admin = null;
        }
        for (ChildProcess process : List.copyOf(paused)) {
            if (process.isAlive()) {
                resume(process);
            }
        }
        List<ChildProcess> all = new ArrayList<>(brokers.values());
        try (ClientShutdowns stopping = new ClientShutdowns()) {
            all.forEach(process -> stopping.start(process::close));
        }
        all = new ArrayList<>(controllers.values());
        if (namesrv != null) {
            all.add(namesrv);
        }
        ChildProcess.stopAll(ChildProcess.STOP_TIMEOUT, all.toArray(ChildProcess[]::new));
    }

    @Override
    public String toString() {
        return "controller cluster[namesrv " + (namesrv == null ? "-" : namesrvAddr()) + ", controllers "
                + controllers.keySet() + ", brokers " + brokerConfs.keySet() + ", in " + workDir + "]";
    }
}
