package org.modmq.matrix;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.BuiltDistribution;
import org.modmq.testkit.process.ChildProcess;
import org.modmq.testkit.process.ConfFile;
import org.modmq.testkit.process.FreePort;
import org.modmq.testkit.process.ProcessSpec;

/**
 * One {@code bin/modmq} process of the built distribution (name server and broker together) on free
 * loopback ports, its store under the test's directory, and a stock admin client of the module's
 * client line. Only version-neutral client API is used here: the scenarios compile against 4.9.8,
 * 5.3.3 and 5.5.0 alike (types that moved between lines are only held in {@code var}). Close it once
 * done. Used from test threads only.
 */
final class MatrixBroker implements AutoCloseable {

    static final String CLUSTER = "MatrixCluster";
    static final String BROKER = "matrix-broker";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String HEAP_OPTS = "-Xms32m -Xmx192m -XX:MaxDirectMemorySize=256m -XX:+UseSerialGC"
            + " -XX:TieredStopAtLevel=1";

    private final Path workDir;
    private final ChildProcess process;
    private final int brokerPort;
    private final int namesrvPort;
    private DefaultMQAdminExt admin;

    private MatrixBroker(Path workDir, ChildProcess process, int brokerPort, int namesrvPort) {
        this.workDir = workDir;
        this.process = process;
        this.brokerPort = brokerPort;
        this.namesrvPort = namesrvPort;
    }

    /** Starts the process and waits until the broker is registered with the embedded name server. */
    static MatrixBroker start(Path workDir) throws Exception {
        return start(workDir, Map.of());
    }

    /**
     * Starts the process with {@code extra} broker keys in its conf file (e.g. short delay levels or
     * check-back intervals) and waits until the broker is registered with the embedded name server.
     */
    static MatrixBroker start(Path workDir, Map<String, String> extra) throws Exception {
        return start(workDir, extra, null);
    }

    /**
     * As {@link #start(Path, Map)}, with an admin client whose requests pass {@code adminHook} (for a
     * broker with {@code aclEnable=true}: the signature of an admin account), or none when null.
     */
    static MatrixBroker start(Path workDir, Map<String, String> extra, RPCHook adminHook) throws Exception {
        BuiltDistribution built = BuiltDistribution.located();
        int[] ports = FreePort.pick(3);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("brokerClusterName", CLUSTER);
        settings.put("brokerName", BROKER);
        settings.put("listenPort", Integer.toString(ports[0]));
        settings.put("haListenPort", Integer.toString(ports[2]));
        settings.put("vipListenPort", "0");
        settings.put("namesrvAddr", "127.0.0.1:" + ports[1]);
        settings.put("storePathRootDir", workDir.resolve("store").toString());
        settings.putAll(extra);
        Path conf = ConfFile.write(workDir, "matrix.conf", settings);
        ProcessSpec spec = new ProcessSpec("modmq-matrix", List.of(built.script("modmq"), "-c", conf.toString()),
                BuiltDistribution.launcherEnvironment(HEAP_OPTS, workDir.resolve("logs")), workDir, ports[0]);
        MatrixBroker broker = new MatrixBroker(workDir, ChildProcess.start(spec, TIMEOUT), ports[0], ports[1]);
        try {
            broker.admin = MatrixClients.admin(broker.namesrvAddr(), adminHook);
            Await.until(BROKER + " registered", TIMEOUT, broker::registered);
            return broker;
        } catch (Exception | AssertionError e) {
            broker.close();
            throw e;
        }
    }

    String namesrvAddr() {
        return "127.0.0.1:" + namesrvPort;
    }

    String brokerAddr() {
        return "127.0.0.1:" + brokerPort;
    }

    Path workDir() {
        return workDir;
    }

    DefaultMQAdminExt admin() {
        return admin;
    }

    /** Creates {@code topic} with {@code queues} read and write queues and waits until it is routed. */
    void createTopic(String topic, int queues) throws Exception {
        admin.createAndUpdateTopicConfig(brokerAddr(), new TopicConfig(topic, queues, queues, 6));
        Await.until("route of " + topic, TIMEOUT, () -> {
            try {
                var route = admin.examineTopicRouteInfo(topic);
                return route.getQueueDatas().size() == 1 && route.getQueueDatas().get(0).getWriteQueueNums() == queues;
            } catch (Exception e) {
                return false;
            }
        });
    }

    /**
     * Waits until the group's committed offsets on {@code topic}, summed over its queues
     * (GET_CONSUME_STATS), reach {@code expected}, running {@code commit} every half second meanwhile;
     * on time-out says what was last seen.
     */
    void awaitCommitted(String group, String topic, long expected, Runnable commit) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        String last = "nothing";
        for (int round = 0; System.nanoTime() < deadline; round++) {
            if (round % 5 == 0) {
                commit.run();
            }
            try {
                var stats = admin.examineConsumeStats(group);
                long sum = 0;
                for (var entry : stats.getOffsetTable().entrySet()) {
                    if (entry.getKey().getTopic().equals(topic)) {
                        sum += entry.getValue().getConsumerOffset();
                    }
                }
                if (sum == expected) {
                    return;
                }
                last = "a sum of " + sum + " in " + stats.getOffsetTable();
            } catch (Exception e) {
                last = e.toString();
            }
            Thread.sleep(100);
        }
        throw new AssertionError(group + " did not commit " + expected + " on " + topic + " within " + TIMEOUT
                + "; last seen: " + last);
    }

    private boolean registered() {
        try {
            var data = admin.examineBrokerClusterInfo().getBrokerAddrTable().get(BROKER);
            return data != null && brokerAddr().equals(data.getBrokerAddrs().get(0L));
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    public void close() {
        DefaultMQAdminExt started = admin;
        admin = null;
        if (started != null) {
            started.shutdown();
        }
        process.close();
    }
}
