package org.modmq.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The built distribution ({@code mq-distribution/target/modmq-VERSION/}, passed by the build as the
 * system property {@value #DIR_PROPERTY}) and the ways to start its processes: each on free loopback
 * ports, with a configuration generated into the test's temporary directory. Every process it
 * starts is returned to the caller, who closes it. Stateless and thread-safe.
 */
final class Distribution {

    static final String DIR_PROPERTY = "modmq.dist.dir";

    /** JVM start, class loading and binding; generous for a loaded 2-core machine. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Path home;

    private Distribution(Path home) {
        this.home = home;
    }

    /**
     * The distribution named by {@value #DIR_PROPERTY}.
     *
     * @throws IllegalStateException if it is not set or not a built distribution
     */
    static Distribution located() {
        String dir = System.getProperty(DIR_PROPERTY);
        if (dir == null || dir.isBlank()) {
            throw new IllegalStateException("system property " + DIR_PROPERTY + " is not set; run the tests through Maven");
        }
        Path home = Path.of(dir).toAbsolutePath().normalize();
        if (!Files.isExecutable(home.resolve("bin/mqnamesrv")) || !Files.isDirectory(home.resolve("lib"))) {
            throw new IllegalStateException(home + " is not a built distribution; build mq-distribution first");
        }
        return new Distribution(home);
    }

    Path home() {
        return home;
    }

    Path lib() {
        return home.resolve("lib");
    }

    Path plugins() {
        return home.resolve("plugins");
    }

    /** Starts {@code bin/mqnamesrv -c <generated conf>} on a free port. */
    ModmqProcess startNamesrv(Path workDir) {
        int port = FreePort.pick();
        Path conf = writeConf(workDir, "namesrv-" + port + ".conf", namesrvSettings(port));
        return ModmqProcess.start("namesrv-" + port,
                List.of(home.resolve("bin/mqnamesrv").toString(), "-c", conf.toString()),
                workDir, port, START_TIMEOUT);
    }

    /**
     * Starts the name server on the class path ({@code java -cp 'lib/*:plugins/*' <main class>}), so
     * that {@code META-INF/services} rather than {@code provides} is what finds providers.
     */
    ModmqProcess startNamesrvOnClasspath(Path workDir) {
        int port = FreePort.pick();
        Path conf = writeConf(workDir, "namesrv-cp-" + port + ".conf", namesrvSettings(port));
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(ModmqProcess.TEST_HEAP_OPTS.split(" ")));
        command.add("-Dlogback.configurationFile=" + home.resolve("conf/logback.xml"));
        command.add("-Dmodmq.log.dir=" + workDir.resolve("logs"));
        command.add("-Dmodmq.log.name=namesrv-cp");
        command.add("-cp");
        command.add(lib() + "/*:" + plugins() + "/*");
        command.add("org.modmq.namesrv.NamesrvStartup");
        command.add("-c");
        command.add(conf.toString());
        return ModmqProcess.start("namesrv-cp-" + port, command, workDir, port, START_TIMEOUT);
    }

    /**
     * Writes a broker configuration: free {@code listenPort} and {@code haListenPort},
     * {@code brokerIP1=127.0.0.1}, the given name servers, a store under {@code workDir}, small commit-log
     * segments, then {@code overrides}.
     */
    BrokerConf brokerConf(Path workDir, String brokerName, List<String> namesrvAddrs, Map<String, String> overrides) {
        return brokerConf(workDir, brokerName, brokerName, namesrvAddrs, overrides);
    }

    /**
     * As {@link #brokerConf(Path, String, List, Map)}, for one of several brokers sharing a
     * {@code brokerName} (a master and its slaves): {@code label} names the configuration file, the
     * store directory and the process.
     */
    BrokerConf brokerConf(Path workDir, String label, String brokerName, List<String> namesrvAddrs,
                          Map<String, String> overrides) {
        int port = FreePort.pick();
        Path store = workDir.resolve(label + "-store");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("brokerClusterName", "CompatCluster");
        settings.put("brokerName", brokerName);
        settings.put("brokerId", "0");
        settings.put("brokerRole", "ASYNC_MASTER");
        settings.put("brokerIP1", "127.0.0.1");
        settings.put("listenPort", Integer.toString(port));
        settings.put("haListenPort", Integer.toString(FreePort.pick()));
        settings.put("namesrvAddr", String.join(";", namesrvAddrs));
        settings.put("storePathRootDir", store.toString());
        settings.put("storeBackend", "mmap");
        settings.put("flushDiskType", "ASYNC_FLUSH");
        settings.put("mappedFileSizeCommitLog", Integer.toString(16 * 1024 * 1024));
        settings.put("autoCreateTopicEnable", "true");
        settings.putAll(overrides);
        Path file = writeConf(workDir, label + ".conf", settings);
        return new BrokerConf(label, brokerName, file, port, store);
    }

    /** Starts {@code bin/mqbroker -c <conf>} and waits for its port (registration is awaited separately). */
    ModmqProcess startBroker(Path workDir, BrokerConf conf) {
        return ModmqProcess.start("broker-" + conf.label(),
                List.of(home.resolve("bin/mqbroker").toString(), "-c", conf.file().toString()),
                workDir, conf.port(), START_TIMEOUT);
    }

    /**
     * Writes a configuration for {@code bin/modmq -c}: the broker on a free {@code listenPort} (and
     * {@code haListenPort}), the embedded name server on the free port named by {@code namesrvAddr},
     * a store under {@code workDir}; every other key keeps the launcher's embedded default.
     */
    StandaloneConf standaloneConf(Path workDir, String brokerName) {
        int brokerPort = FreePort.pick();
        int namesrvPort = FreePort.pick();
        Path store = workDir.resolve("standalone-store");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("brokerName", brokerName);
        settings.put("listenPort", Integer.toString(brokerPort));
        settings.put("haListenPort", Integer.toString(FreePort.pick()));
        settings.put("namesrvAddr", "127.0.0.1:" + namesrvPort);
        settings.put("storePathRootDir", store.toString());
        Path file = writeConf(workDir, "standalone.conf", settings);
        return new StandaloneConf(brokerName, file, brokerPort, namesrvPort, store);
    }

    /** Starts {@code bin/modmq -c <conf>} and waits for the broker's port (the name server opens first). */
    ModmqProcess startStandalone(Path workDir, StandaloneConf conf) {
        return ModmqProcess.start("standalone-" + conf.brokerPort(),
                List.of(home.resolve("bin/modmq").toString(), "-c", conf.file().toString()),
                workDir, conf.brokerPort(), START_TIMEOUT);
    }

    private static Map<String, String> namesrvSettings(int port) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("listenPort", Integer.toString(port));
        settings.put("bindAddress", "127.0.0.1");
        return settings;
    }

    private static Path writeConf(Path dir, String fileName, Map<String, String> settings) {
        StringBuilder text = new StringBuilder("# generated by mq-compat-tests\n");
        settings.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        Path file = dir.resolve(fileName);
        try {
            Files.createDirectories(dir);
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    /**
     * A generated broker configuration.
     *
     * @param label      names its file, store and process: the brokerName, or e.g. {@code broker-a-s} for a slave
     * @param brokerName its {@code brokerName}
     * @param file       the {@code broker.conf} written
     * @param port       its {@code listenPort}
     * @param storeDir   its {@code storePathRootDir}
     */
    record BrokerConf(String label, String brokerName, Path file, int port, Path storeDir) {
        BrokerConf {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(brokerName, "brokerName");
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(storeDir, "storeDir");
        }

        /** {@code 127.0.0.1:port}, the address the broker registers. */
        String address() {
            return "127.0.0.1:" + port;
        }
    }

    /**
     * A generated configuration for the standalone launcher.
     *
     * @param brokerName  its {@code brokerName}
     * @param file        the file passed with {@code -c}
     * @param brokerPort  the broker's {@code listenPort}
     * @param namesrvPort the embedded name server's port
     * @param storeDir    its {@code storePathRootDir}
     */
    record StandaloneConf(String brokerName, Path file, int brokerPort, int namesrvPort, Path storeDir) {
        StandaloneConf {
            Objects.requireNonNull(brokerName, "brokerName");
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(storeDir, "storeDir");
        }

        String namesrvAddr() {
            return "127.0.0.1:" + namesrvPort;
        }

        String brokerAddr() {
            return "127.0.0.1:" + brokerPort;
        }
    }
}
