package org.modmq.interop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.modmq.testkit.process.BuiltDistribution;
import org.modmq.testkit.process.ChildProcess;
import org.modmq.testkit.process.ConfFile;
import org.modmq.testkit.process.FreePort;
import org.modmq.testkit.process.ProcessSpec;

/**
 * The built modmq distribution ({@link BuiltDistribution}, named by the system property
 * {@value BuiltDistribution#DIR_PROPERTY} that the build sets) and its broker started as a process with
 * a generated configuration. Stateless.
 */
final class ModmqDistribution {

    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final String HEAP = "-Xms64m -Xmx256m -XX:MaxDirectMemorySize=256m -XX:+UseSerialGC"
            + " -XX:TieredStopAtLevel=1";

    private static final String CONTROLLER_HEAP = "-Xms32m -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";

    private ModmqDistribution() {
    }

    /**
     * Starts {@code bin/mqbroker -c <conf>} with the shared {@link BrokerSettings} for {@code role},
     * {@code haStrategy=pull}, the mmap store, on free loopback ports.
     */
    static ModmqBroker startBroker(Path workDir, String label, String role, String namesrvAddr) {
        BuiltDistribution distribution = BuiltDistribution.located();
        int[] ports = FreePort.pick(2);
        int port = ports[0];
        Path store = workDir.resolve(label + "-store");
        Map<String, String> settings = BrokerSettings.common(role, port, ports[1], namesrvAddr, store);
        settings.put("haStrategy", "pull");
        settings.put("storeBackend", "mmap");
        Path conf = ConfFile.write(workDir, label + ".conf", settings);
        ChildProcess process = ChildProcess.start(new ProcessSpec(label,
                List.of(distribution.script("mqbroker"), "-c", conf.toString()),
                BuiltDistribution.launcherEnvironment(HEAP, workDir.resolve(label + "-logs")), workDir, port),
                START_TIMEOUT);
        return new ModmqBroker(process, store.resolve("commitlog"));
    }

    /**
     * Starts {@code bin/mqbroker -c <conf>} in controller mode ({@code enableControllerMode=true}, no
     * {@code brokerId} or {@code brokerRole}: the controllers at {@code controllerAddr} assign both) with
     * the shared {@link BrokerSettings}, {@code haStrategy=pull} (so AutoSwitch HA), the mmap store,
     * {@code allAckInSyncStateSet=true}, HA on {@code listenPort + 1}, and {@code extra} keys added last.
     * The SyncStateSet check and the replica-info poll run every second, as for the stock brokers of
     * {@link StockRocketMq#startControllerModeBroker}.
     */
    static ModmqBroker startControllerModeBroker(Path workDir, String label, String namesrvAddr, String controllerAddr,
            Map<String, String> extra) {
        BuiltDistribution distribution = BuiltDistribution.located();
        // listenPort - 2 is free too: the VIP port, where a stock replica fetches its master's metadata
        int port = FreePort.pickRun(2, 1);
        Path store = workDir.resolve(label + "-store");
        Map<String, String> settings = BrokerSettings.common("SLAVE", port, port + 1, namesrvAddr, store);
        settings.remove("brokerId");
        settings.remove("brokerRole");
        settings.put("haStrategy", "pull");
        settings.put("storeBackend", "mmap");
        settings.put("enableControllerMode", "true");
        settings.put("controllerAddr", controllerAddr);
        settings.put("allAckInSyncStateSet", "true");
        settings.put("checkSyncStateSetPeriod", "1000");
        settings.put("syncBrokerMetadataPeriod", "1000");
        settings.putAll(extra);
        Path conf = ConfFile.write(workDir, label + ".conf", settings);
        ChildProcess process = ChildProcess.start(new ProcessSpec(label,
                List.of(distribution.script("mqbroker"), "-c", conf.toString()),
                BuiltDistribution.launcherEnvironment(HEAP, workDir.resolve(label + "-logs")), workDir, port),
                START_TIMEOUT);
        return new ModmqBroker(process, store.resolve("commitlog"));
    }

    /**
     * Starts three controller peers ({@code bin/mqcontroller}) of one group on free loopback ports, stores
     * under {@code workDir}, Raft election timeouts of 300-600 ms.
     *
     * @return the running peers, n0 first; their remoting addresses joined by {@code ;} are a broker's
     *     {@code controllerAddr}
     */
    static java.util.List<ChildProcess> startControllers(Path workDir) {
        return startControllers(workDir, Map.of());
    }

    /** {@link #startControllers(Path)} with {@code extra} controller keys on every peer. */
    static java.util.List<ChildProcess> startControllers(Path workDir, Map<String, String> extra) {
        BuiltDistribution distribution = BuiltDistribution.located();
        int[] ports = FreePort.pick(6);
        StringBuilder remoting = new StringBuilder();
        StringBuilder raft = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            remoting.append(i == 0 ? "" : ";").append("n").append(i).append("-127.0.0.1:").append(ports[2 * i]);
            raft.append(i == 0 ? "" : ";").append("n").append(i).append("-127.0.0.1:").append(ports[2 * i + 1]);
        }
        java.util.List<ChildProcess> peers = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                Map<String, String> settings = new java.util.LinkedHashMap<>();
                settings.put("controllerDLegerGroup", "interop-controllers");
                settings.put("controllerDLegerPeers", remoting.toString());
                settings.put("controllerRaftPeers", raft.toString());
                settings.put("controllerDLegerSelfId", "n" + i);
                settings.put("controllerStorePath", workDir.resolve("controller-n" + i).toString());
                settings.put("raftElectionTimeoutMin", "300");
                settings.put("raftElectionTimeoutMax", "600");
                settings.putAll(extra);
                Path conf = ConfFile.write(workDir, "controller-n" + i + ".conf", settings);
                peers.add(ChildProcess.start(new ProcessSpec("controller-n" + i,
                        List.of(distribution.script("mqcontroller"), "-c", conf.toString()),
                        BuiltDistribution.launcherEnvironment(CONTROLLER_HEAP, workDir.resolve("controller-n" + i + "-logs")),
                        workDir, ports[2 * i]), START_TIMEOUT));
            }
        } catch (RuntimeException e) {
            peers.forEach(ChildProcess::close);
            throw e;
        }
        return peers;
    }

    /**
     * A running modmq broker.
     *
     * @param process      the child process
     * @param commitLogDir its {@code storePathRootDir/commitlog}
     */
    record ModmqBroker(ChildProcess process, Path commitLogDir) {
    }
}
