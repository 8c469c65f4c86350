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
     * A running modmq broker.
     *
     * @param process      the child process
     * @param commitLogDir its {@code storePathRootDir/commitlog}
     */
    record ModmqBroker(ChildProcess process, Path commitLogDir) {
    }
}
