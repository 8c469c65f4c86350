package org.modmq.launcher;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.broker.BrokerServer;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.BrokerConfigParser;
import org.modmq.controller.ControllerAcl;
import org.modmq.controller.ControllerConfig;
import org.modmq.controller.ControllerServer;
import org.modmq.namesrv.NamesrvConfig;
import org.modmq.namesrv.NamesrvServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One-process development setup: an in-process name server on {@code 127.0.0.1:9876} and a broker on
 * {@code 127.0.0.1:10911} registered with it, {@code autoCreateTopicEnable=true}.
 * Usage: {@code StandaloneStartup [-d storeDir] [-c broker.conf]}; the store defaults to {@code ./store},
 * keys of the optional file override the embedded defaults. When the file sets {@code namesrvAddr},
 * the embedded name server listens on the port of its first entry (so both ports can be moved).
 * With {@code enableControllerInNamesrv=true} in the file, a controller peer runs beside the name server
 * too (the file's controller keys configure it; see {@link ControllerConfig}).
 * SIGTERM/SIGINT close the broker, then the controller, then the name server. Exits 1 on a
 * configuration or start-up error.
 */
public final class StandaloneStartup {

    private static final Logger LOG = LoggerFactory.getLogger(StandaloneStartup.class);
    static final int NAMESRV_PORT = 9876;

    private StandaloneStartup() {
    }

    public static void main(String[] args) {
        List<AutoCloseable> started = new ArrayList<>();
        NamesrvServer namesrv;
        BrokerServer broker;
        try {
            Setup setup = setup(args, "127.0.0.1:" + NAMESRV_PORT);
            // With aclEnable=true the embedded name server and controller check the same file as the broker;
            // one process, one set of TLS settings: the name server and controller take the broker's.
            namesrv = new NamesrvServer(NamesrvConfig.defaults().withListenPort(namesrvPort(setup.broker()))
                    .withAcl(setup.broker().acl().enabled(), setup.broker().acl().file()).withTls(setup.broker().tls()));
            started.add(0, namesrv);
            namesrv.start();
            if (setup.controller() != null) {
                ControllerServer controller = new ControllerServer(setup.controller().withTls(setup.broker().tls())
                        .withAcl(new ControllerAcl(setup.broker().acl().enabled(), setup.broker().acl().file(),
                                setup.broker().acl().innerAccessKey(), setup.broker().acl().innerSecretKey())));
                started.add(0, controller);
                controller.start();
                LOG.info("modmq standalone: controller {}", controller.address());
            }
            broker = new BrokerServer(setup.broker(), Clock.systemUTC());
            started.add(0, broker);
            broker.start();
        } catch (ConfigException e) {
            LOG.error("configuration error: {}", e.getMessage());
            Lifetime.closeAll(started);
            System.exit(1);
            return;
        } catch (RuntimeException e) {
            LOG.error("standalone start failed", e);
            Lifetime.closeAll(started);
            System.exit(1);
            return;
        }
        LOG.info("modmq standalone: name server {}, broker {}", namesrv.address(), broker.brokerAddr());
        Lifetime.runUntilShutdown("Standalone", started);
    }

    /** The embedded defaults, overridden by {@code -c file}, with the store from {@code -d dir}. */
    static BrokerConfig config(String[] args, String namesrvAddr) {
        return setup(args, namesrvAddr).broker();
    }

    /** The broker's settings and, when the file enables one, the controller's. */
    static Setup setup(String[] args, String namesrvAddr) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("brokerIP1", "127.0.0.1");
        values.put("listenPort", "10911");
        values.put("namesrvAddr", namesrvAddr);
        values.put("autoCreateTopicEnable", "true");
        values.put("storePathRootDir", Path.of(option(args, "-d", "store")).toAbsolutePath().toString());
        String file = option(args, "-c", null);
        String source = "embedded defaults";
        ControllerConfig controller = null;
        if (file != null) {
            ConfFiles.Split split = ConfFiles.split(ConfFiles.read(Path.of(file)));
            values.putAll(split.own());
            source = file;
            if (split.controllerEnabled()) {
                controller = ControllerConfig.parse(split.controller(), LOG::warn);
            } else if (!split.controller().isEmpty()) {
                throw new ConfigException("controller keys " + split.controller().keySet() + " in " + file + " need "
                        + ConfFiles.ENABLE_CONTROLLER + "=true");
            }
        }
        return new Setup(BrokerConfigParser.parse(ConfigValues.of(values), source), controller);
    }

    /** The port of the first {@code namesrvAddr} entry, where the embedded name server must listen. */
    static int namesrvPort(BrokerConfig config) {
        List<String> addresses = config.nameServer().addresses();
        if (addresses.isEmpty()) {
            return NAMESRV_PORT;
        }
        String first = addresses.get(0);
        return Integer.parseInt(first.substring(first.lastIndexOf(':') + 1));
    }

    private static String option(String[] args, String name, String defaultValue) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return defaultValue;
    }

    /**
     * What the standalone process runs.
     *
     * @param broker     the broker's settings
     * @param controller the controller's settings, or null for none
     */
    record Setup(BrokerConfig broker, ControllerConfig controller) {
    }
}
