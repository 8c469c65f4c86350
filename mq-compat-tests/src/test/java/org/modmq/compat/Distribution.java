package org.modmq.compat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.modmq.testkit.process.BuiltDistribution;
import org.modmq.testkit.process.ChildProcess;
import org.modmq.testkit.process.ConfFile;
import org.modmq.testkit.process.FreePort;
import org.modmq.testkit.process.ProcessSpec;

/**
 * The built distribution ({@link BuiltDistribution}, named by the system property
 * {@value BuiltDistribution#DIR_PROPERTY}) and the ways to start its processes: each on free loopback
 * ports, with a configuration generated into the test's temporary directory. Every process it
 * starts is returned to the caller, who closes it. Stateless and thread-safe.
 */
final class Distribution {

    /** JVM start, class loading and binding; generous for a loaded 2-core machine. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    /** Small, fast-starting JVMs: several of these run at once on a small machine. */
    static final String TEST_HEAP_OPTS = "-Xms32m -Xmx192m -XX:MaxDirectMemorySize=256m -XX:+UseSerialGC"
            + " -XX:TieredStopAtLevel=1";

    private final BuiltDistribution built;

    private Distribution(BuiltDistribution built) {
        this.built = built;
    }

    /**
     * The distribution named by {@value BuiltDistribution#DIR_PROPERTY}.
     *
     * @throws IllegalStateException if it is not set or not a built distribution
     */
    static Distribution located() {
        return new Distribution(BuiltDistribution.located());
    }

    /**
     * The distribution in {@code home} (one a test assembled, e.g. with other plugins).
     *
     * @throws IllegalStateException if {@code home} is not a built distribution
     */
    static Distribution at(Path home) {
        return new Distribution(BuiltDistribution.at(home));
    }

    Path home() {
        return built.home();
    }

    Path lib() {
        return built.lib();
    }

    Path plugins() {
        return built.plugins();
    }

    /**
     * A copy of this distribution under {@code target} (without its class-data archives) with
     * {@code pluginJar} added to {@code plugins/}, as an operator installs a third-party plugin.
     */
    Distribution copyWithPlugin(Path target, Path pluginJar) throws IOException {
        Path home = built.home();
        try (Stream<Path> files = Files.walk(home)) {
            for (Path source : (Iterable<Path>) files::iterator) {
                Path relative = home.relativize(source);
                if (relative.startsWith("cds")) {
                    continue;
                }
                Path copy = target.resolve(relative.toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(source, copy, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        Files.copy(pluginJar, target.resolve("plugins").resolve(pluginJar.getFileName()));
        return new Distribution(BuiltDistribution.at(target));
    }

    /** Starts {@code bin/mqnamesrv -c <generated conf>} on a free port. */
    ChildProcess startNamesrv(Path workDir) {
        return startNamesrv(workDir, Map.of());
    }

    /** Starts {@code bin/mqnamesrv -c <generated conf>} on a free port, with {@code overrides} added to the conf. */
    ChildProcess startNamesrv(Path workDir, Map<String, String> overrides) {
        int port = FreePort.pick();
        Map<String, String> settings = namesrvSettings(port);
        settings.putAll(overrides);
        Path conf = ConfFile.write(workDir, "namesrv-" + port + ".conf", settings);
        return start("namesrv-" + port, List.of(built.script("mqnamesrv"), "-c", conf.toString()), workDir, port);
    }

    /**
     * Starts {@code bin/mqcontroller -c <generated conf>}: one controller on a free remoting port, its Raft
     * peer on another, the store under {@code workDir}, plus {@code overrides}.
     */
    ChildProcess startController(Path workDir, Map<String, String> overrides) {
        int[] ports = FreePort.pick(2);
        Map<String, String> settings = controllerSettings(workDir, ports);
        settings.putAll(overrides);
        Path conf = ConfFile.write(workDir, "controller-" + ports[0] + ".conf", settings);
        return start("controller-" + ports[0], List.of(built.script("mqcontroller"), "-c", conf.toString()), workDir,
                ports[0]);
    }

    /**
     * Starts {@code bin/mqcontroller -c <conf>} with exactly {@code settings} (one peer of a group the caller
     * laid out on ports it picked) and waits until its remoting {@code port} accepts.
     *
     * @param name names the configuration file, the output file and the process
     */
    ChildProcess startControllerPeer(Path workDir, String name, Map<String, String> settings, int port) {
        Path conf = ConfFile.write(workDir, name + ".conf", settings);
        return start(name, List.of(built.script("mqcontroller"), "-c", conf.toString()), workDir, port);
    }

    /**
     * Starts {@code bin/mqnamesrv} with {@code enableControllerInNamesrv=true}: the name server on a free
     * port and the controller beside it on two more. The process is the name server's; the controller's
     * address is {@link #controllerAddressOf}.
     */
    ChildProcess startNamesrvWithController(Path workDir) {
        int[] ports = FreePort.pick(3);
        Map<String, String> settings = namesrvSettings(ports[0]);
        settings.put("enableControllerInNamesrv", "true");
        settings.putAll(controllerSettings(workDir, new int[] {ports[1], ports[2]}));
        Path conf = ConfFile.write(workDir, "namesrv-controller-" + ports[0] + ".conf", settings);
        ChildProcess namesrv = start("namesrv-controller-" + ports[0], List.of(built.script("mqnamesrv"), "-c",
                conf.toString()), workDir, ports[0]);
        namesrv.awaitAccepting(ports[1], START_TIMEOUT);
        return namesrv;
    }

    /** The controller address of a name server started by {@link #startNamesrvWithController}. */
    static String controllerAddressOf(ChildProcess namesrv) {
        String peers = namesrvControllerPeers(namesrv);
        return peers.substring(peers.indexOf('-') + 1);
    }

    private static String namesrvControllerPeers(ChildProcess namesrv) {
        for (String arg : namesrv.spec().command()) {
            if (arg.endsWith(".conf")) {
                try {
                    for (String line : java.nio.file.Files.readAllLines(Path.of(arg))) {
                        if (line.startsWith("controllerDLegerPeers=")) {
                            return line.substring("controllerDLegerPeers=".length());
                        }
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("no controller in " + namesrv.spec().command());
    }

    private static Map<String, String> controllerSettings(Path workDir, int[] ports) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("controllerDLegerGroup", "compat-controller");
        settings.put("controllerDLegerPeers", "n0-127.0.0.1:" + ports[0]);
        settings.put("controllerRaftPeers", "n0-127.0.0.1:" + ports[1]);
        settings.put("controllerStorePath", workDir.resolve("controller-" + ports[0] + "-store").toString());
        settings.put("raftElectionTimeoutMin", "150");
        settings.put("raftElectionTimeoutMax", "300");
        return settings;
    }

    /**
     * Starts the name server on the class path ({@code java -cp 'lib/*:plugins/*' <main class>}), so
     * that {@code META-INF/services} rather than {@code provides} is what finds providers.
     */
    ChildProcess startNamesrvOnClasspath(Path workDir) {
        int port = FreePort.pick();
        Path conf = ConfFile.write(workDir, "namesrv-cp-" + port + ".conf", namesrvSettings(port));
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(TEST_HEAP_OPTS.split(" ")));
        command.add("-Dmodmq.log.dir=" + workDir.resolve("logs"));
        command.add("-Dmodmq.log.name=namesrv-cp");
        command.add("-cp");
        command.add(lib() + "/*:" + plugins() + "/*");
        command.add("org.modmq.namesrv.NamesrvStartup");
        command.add("-c");
        command.add(conf.toString());
        return start("namesrv-cp-" + port, command, workDir, port);
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
        int[] ports = FreePort.pick(2);
        int port = ports[0];
        Path store = workDir.resolve(label + "-store");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("brokerClusterName", "CompatCluster");
        settings.put("brokerName", brokerName);
        settings.put("brokerId", "0");
        settings.put("brokerRole", "ASYNC_MASTER");
        settings.put("brokerIP1", "127.0.0.1");
        settings.put("listenPort", Integer.toString(port));
        settings.put("haListenPort", Integer.toString(ports[1]));
        // listenPort - 2 was not picked free: a VIP port there could take a port another process was given
        settings.put("vipListenPort", "0");
        settings.put("namesrvAddr", String.join(";", namesrvAddrs));
        settings.put("storePathRootDir", store.toString());
        settings.put("storeBackend", "mmap");
        settings.put("flushDiskType", "ASYNC_FLUSH");
        settings.put("mappedFileSizeCommitLog", Integer.toString(16 * 1024 * 1024));
        settings.put("autoCreateTopicEnable", "true");
        settings.putAll(overrides);
        Path file = ConfFile.write(workDir, label + ".conf", settings);
        return new BrokerConf(label, brokerName, file, port, store);
    }

    /** Starts {@code bin/mqbroker -c <conf>} and waits for its port (registration is awaited separately). */
    ChildProcess startBroker(Path workDir, BrokerConf conf) {
        return start("broker-" + conf.label(), List.of(built.script("mqbroker"), "-c", conf.file().toString()),
                workDir, conf.port());
    }

    /**
     * Writes a configuration for {@code bin/modmq -c}: the broker on a free {@code listenPort} (and
     * {@code haListenPort}), the embedded name server on the free port named by {@code namesrvAddr},
     * no VIP port, a store under {@code workDir}; every other key keeps the launcher's embedded default.
     */
    StandaloneConf standaloneConf(Path workDir, String brokerName) {
        return standaloneConf(workDir, brokerName, Map.of());
    }

    /** As {@link #standaloneConf(Path, String)}, with {@code overrides} added to the file. */
    StandaloneConf standaloneConf(Path workDir, String brokerName, Map<String, String> overrides) {
        int[] ports = FreePort.pick(3);
        int brokerPort = ports[0];
        int namesrvPort = ports[1];
        Path store = workDir.resolve("standalone-store");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("brokerName", brokerName);
        settings.put("listenPort", Integer.toString(brokerPort));
        settings.put("haListenPort", Integer.toString(ports[2]));
        settings.put("vipListenPort", "0");
        settings.put("namesrvAddr", "127.0.0.1:" + namesrvPort);
        settings.put("storePathRootDir", store.toString());
        settings.putAll(overrides);
        Path file = ConfFile.write(workDir, "standalone.conf", settings);
        return new StandaloneConf(brokerName, file, brokerPort, namesrvPort, store);
    }

    /** Starts {@code bin/modmq -c <conf>} and waits for the broker's port (the name server opens first). */
    ChildProcess startStandalone(Path workDir, StandaloneConf conf) {
        return start("standalone-" + conf.brokerPort(), List.of(built.script("modmq"), "-c", conf.file().toString()),
                workDir, conf.brokerPort());
    }

    private static Map<String, String> namesrvSettings(int port) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("listenPort", Integer.toString(port));
        settings.put("bindAddress", "127.0.0.1");
        return settings;
    }

    /**
     * Starts {@code command} in {@code workDir} with the launch scripts' environment (this JVM, small
     * heaps, logs under {@code workDir/logs}) and waits for {@code port}; the output file is
     * {@code workDir/name.out}.
     */
    private static ChildProcess start(String name, List<String> command, Path workDir, int port) {
        Map<String, String> environment = BuiltDistribution.launcherEnvironment(TEST_HEAP_OPTS, workDir.resolve("logs"));
        return ChildProcess.start(new ProcessSpec(name, command, environment, workDir, port), START_TIMEOUT);
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
