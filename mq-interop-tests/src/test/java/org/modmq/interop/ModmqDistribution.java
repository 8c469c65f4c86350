package org.modmq.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The built modmq distribution ({@code mq-distribution/target/modmq-VERSION/}, named by the system
 * property {@value #DIR_PROPERTY} that the build sets) and its broker started as a process with a
 * generated configuration. Stateless.
 */
final class ModmqDistribution {

    static final String DIR_PROPERTY = "modmq.dist.dir";
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final String HEAP = "-Xms64m -Xmx256m -XX:MaxDirectMemorySize=256m -XX:+UseSerialGC"
            + " -XX:TieredStopAtLevel=1";

    private ModmqDistribution() {
    }

    /** The distribution directory; fails clearly when it is not built. */
    static Path home() {
        String dir = System.getProperty(DIR_PROPERTY);
        if (dir == null || dir.isBlank()) {
            throw new IllegalStateException("system property " + DIR_PROPERTY + " is not set; run the tests through Maven");
        }
        Path home = Path.of(dir).toAbsolutePath().normalize();
        if (!Files.isExecutable(home.resolve("bin/mqbroker"))) {
            throw new IllegalStateException(home + " is not a built distribution; build mq-distribution first");
        }
        return home;
    }

    /**
     * Starts {@code bin/mqbroker -c <conf>} with the shared {@link BrokerSettings} for {@code role},
     * {@code haStrategy=pull}, the mmap store, on free loopback ports.
     */
    static ModmqBroker startBroker(Path workDir, String label, String role, String namesrvAddr) {
        Path home = home();
        int port = FreePort.pick();
        Path store = workDir.resolve(label + "-store");
        Map<String, String> settings = BrokerSettings.common(role, port, FreePort.pick(), namesrvAddr, store);
        settings.put("haStrategy", "pull");
        settings.put("storeBackend", "mmap");
        Path conf = ConfFile.write(workDir, label + ".conf", settings);
        ChildProcess process = ChildProcess.start(label,
                List.of(home.resolve("bin/mqbroker").toString(), "-c", conf.toString()),
                Map.of("JAVA_HOME", System.getProperty("java.home"), "JAVA_HEAP_OPTS", HEAP,
                        "MODMQ_LOG_DIR", workDir.resolve(label + "-logs").toString()),
                workDir, port, START_TIMEOUT);
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
