package org.modmq.interop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modmq.testkit.process.ChildProcess;
import org.modmq.testkit.process.ConfFile;
import org.modmq.testkit.process.FreePort;
import org.modmq.testkit.process.ProcessSpec;

/**
 * Apache RocketMQ 5.3.3's name server and broker as child JVMs, launched from the jars Maven put on this
 * test JVM's class path (no download at test time). Each process gets a home, logs and store under the
 * test's temporary directory and listens on free loopback ports only. Stateless.
 */
final class StockRocketMq {

    /** JVM start, class loading, store set-up and binding on a loaded 2-core machine. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private static final List<String> BROKER_JVM = List.of("-Xms256m", "-Xmx256m", "-XX:MaxDirectMemorySize=256m",
            "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final List<String> NAMESRV_JVM = List.of("-Xms64m", "-Xmx128m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1");
    /** The stock store reaches into NIO internals (buffer cleaning) on JDK 9+. */
    private static final List<String> OPENS = List.of("--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED");

    private StockRocketMq() {
    }

    /** Starts {@code NamesrvStartup} on a free port bound to 127.0.0.1. */
    static ChildProcess startNamesrv(Path workDir) {
        int port = FreePort.pick();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("listenPort", Integer.toString(port));
        settings.put("bindAddress", "127.0.0.1");
        // A remoting-client key; the name server never dials name servers, so this only idles a task.
        settings.put("scanAvailableNameSrv", "false");
        Path conf = ConfFile.write(workDir, "stock-namesrv.properties", settings);
        return launch("stock-namesrv", NAMESRV_JVM, "org.apache.rocketmq.namesrv.NamesrvStartup", conf, workDir, port);
    }

    /**
     * Starts {@code BrokerStartup} with the shared {@link BrokerSettings} for {@code role}, on a free listen
     * port whose neighbours are free too (the stock broker also binds {@code listenPort - 2}), HA on
     * {@code listenPort + 1}, plus the keys that keep a stock broker small: small ConsumeQueue and index
     * files, no timer wheel, no controller mode.
     *
     * @return the running broker and where its store is
     */
    static StockBroker startBroker(Path workDir, String label, String role, String namesrvAddr) {
        int port = FreePort.pickRun(2, 1);
        Path store = workDir.resolve(label + "-store");
        Map<String, String> settings = BrokerSettings.common(role, port, port + 1, namesrvAddr, store);
        settings.put("bindAddress", "127.0.0.1");
        settings.put("mappedFileSizeConsumeQueue", Integer.toString(300 * 20));
        settings.put("maxHashSlotNum", "1000");
        settings.put("maxIndexNum", "4000");
        settings.put("timerWheelEnable", "false");
        settings.put("enableControllerMode", "false");
        settings.put("transientStorePoolEnable", "false");
        settings.put("warmMapedFileEnable", "false");
        Path conf = ConfFile.write(workDir, label + ".properties", settings);
        ChildProcess process = launch(label, BROKER_JVM, "org.apache.rocketmq.broker.BrokerStartup", conf, workDir,
                port);
        return new StockBroker(process, store.resolve("commitlog"));
    }

    /**
     * Starts {@code BrokerStartup} in controller mode ({@code enableControllerMode=true}): its id and role
     * come from the controllers at {@code controllerAddr}; brokerIP1/brokerIP2 on loopback, the same small
     * store settings as {@link #startBroker}, the HA port at {@code listenPort + 1}.
     */
    static StockBroker startControllerModeBroker(Path workDir, String label, String namesrvAddr, String controllerAddr) {
        return startControllerModeBroker(workDir, label, namesrvAddr, controllerAddr, Map.of());
    }

    /**
     * {@link #startControllerModeBroker(Path, String, String, String)} with {@code extra} keys added last
     * (they override the defaults).
     */
    static StockBroker startControllerModeBroker(Path workDir, String label, String namesrvAddr, String controllerAddr,
            Map<String, String> extra) {
        int port = FreePort.pickRun(2, 1);
        Path store = workDir.resolve(label + "-store");
        Map<String, String> settings = BrokerSettings.common("SLAVE", port, port + 1, namesrvAddr, store);
        settings.remove("brokerId");
        settings.remove("brokerRole");
        settings.put("bindAddress", "127.0.0.1");
        settings.put("mappedFileSizeConsumeQueue", Integer.toString(300 * 20));
        settings.put("maxHashSlotNum", "1000");
        settings.put("maxIndexNum", "4000");
        settings.put("timerWheelEnable", "false");
        settings.put("transientStorePoolEnable", "false");
        settings.put("warmMapedFileEnable", "false");
        settings.put("enableControllerMode", "true");
        settings.put("controllerAddr", controllerAddr);
        // No scanAvailableNameSrv=false here: a broker registers only with name servers its scan found.
        // The master widens its sync-state set, and replicas poll the controller, every second.
        settings.put("checkSyncStateSetPeriod", "1000");
        settings.put("syncBrokerMetadataPeriod", "1000");
        settings.putAll(extra);
        Path conf = ConfFile.write(workDir, label + ".properties", settings);
        ChildProcess process = launch(label, BROKER_JVM, "org.apache.rocketmq.broker.BrokerStartup", conf, workDir, port);
        return new StockBroker(process, store.resolve("commitlog"));
    }

    private static ChildProcess launch(String label, List<String> jvmOptions, String mainClass, Path conf,
            Path workDir, int port) {
        Path home = workDir.resolve(label + "-home");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(OPENS);
        command.add("-Duser.home=" + home);
        command.add("-Drocketmq.home.dir=" + home);
        command.add("-Drocketmq.log.level=WARN");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.add("-c");
        command.add(conf.toString());
        return ChildProcess.start(new ProcessSpec(label, command, Map.of("ROCKETMQ_HOME", home.toString()), workDir,
                port), START_TIMEOUT);
    }

    /**
     * A running stock broker.
     *
     * @param process      the child process
     * @param commitLogDir its {@code storePathRootDir/commitlog}
     */
    record StockBroker(ChildProcess process, Path commitLogDir) {
    }
}
