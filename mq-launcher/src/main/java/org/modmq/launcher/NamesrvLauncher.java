package org.modmq.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.modmq.api.config.ConfigException;
import org.modmq.controller.ControllerAcl;
import org.modmq.controller.ControllerConfig;
import org.modmq.controller.ControllerServer;
import org.modmq.metrics.MetricsConfig;
import org.modmq.namesrv.NamesrvConfig;
import org.modmq.namesrv.NamesrvServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command-line entry point of the name server ({@code bin/mqnamesrv}), optionally with a controller peer
 * in the same JVM, as RocketMQ's {@code enableControllerInNamesrv=true} does.
 *
 * <pre>
 * mqnamesrv [-c namesrv.conf] [-p] [-h]
 * </pre>
 *
 * The file holds the name server's keys ({@link NamesrvConfig}) and, with
 * {@code enableControllerInNamesrv=true}, the controller's keys ({@link ControllerConfig}); without any
 * controller key that is one controller on {@code 127.0.0.1:9878} storing under
 * {@code store/controller/n0}. The controller follows the name server's {@code aclEnable} and {@code aclFile}
 * (and its TLS keys). {@code metricsExporterType=PROM} serves {@code /metrics} on
 * {@code metricsPromExporterHost:metricsPromExporterPort} (default 127.0.0.1:5558), the controller's figures
 * included when one runs beside. Without {@code enableControllerInNamesrv=true} no controller class is
 * touched and Ratis is not loaded. Runs until SIGTERM/SIGINT; the controller stops first. Exit status 1
 * on a bad argument or setting, or when a port cannot be bound.
 */
public final class NamesrvLauncher {

    private static final Logger LOG = LoggerFactory.getLogger(NamesrvLauncher.class);
    private static final String USAGE = "usage: mqnamesrv [-c namesrv.conf] [-p] [-h]";

    private NamesrvLauncher() {
    }

    public static void main(String[] args) {
        int status = run(args);
        if (status != 0) {
            System.exit(status);
        }
    }

    static int run(String[] args) {
        LaunchOptions options = LaunchOptions.parse(args, USAGE);
        if (options == null) {
            return 1;
        }
        if (options.help()) {
            LOG.info(USAGE);
            return 0;
        }
        NamesrvConfig namesrvConfig;
        ControllerConfig controllerConfig = null;
        MetricsConfig metricsConfig;
        try {
            Map<String, String> values = new TreeMap<>(options.file() == null ? Map.of() : ConfFiles.read(options.file()));
            metricsConfig = MetricsConfig.take(values, MetricsConfig.NAMESRV_PORT,
                    options.file() == null ? "(defaults)" : options.file().toString());
            ConfFiles.Split split = ConfFiles.split(values);
            namesrvConfig = NamesrvConfig.parse(split.own(), LOG::warn);
            if (split.controllerEnabled()) {
                // One process, one set of TLS and ACL settings: the controller takes the name server's.
                controllerConfig = ControllerConfig.parse(split.controller(), LOG::warn).withTls(namesrvConfig.tls())
                        .withAcl(new ControllerAcl(namesrvConfig.aclEnable(), namesrvConfig.aclFile()));
            } else if (!split.controller().isEmpty()) {
                LOG.warn("controller keys {} are ignored: {} is not true", split.controller().keySet(),
                        ConfFiles.ENABLE_CONTROLLER);
            }
        } catch (ConfigException e) {
            LOG.error("bad name server configuration{}: {}", options.file() == null ? "" : " in " + options.file(),
                    e.getMessage());
            return 1;
        }
        if (options.print()) {
            namesrvConfig.asProperties().forEach((key, value) -> LOG.info("{}={}", key, value));
            metricsConfig.asProperties().forEach((key, value) -> LOG.info("{}={}", key, value));
            if (controllerConfig != null) {
                controllerConfig.asProperties().forEach((key, value) -> LOG.info("controller {}={}", key, value));
            }
            return 0;
        }
        return serve(namesrvConfig, controllerConfig, metricsConfig);
    }

    private static int serve(NamesrvConfig namesrvConfig, ControllerConfig controllerConfig,
                             MetricsConfig metricsConfig) {
        List<AutoCloseable> started = new ArrayList<>();
        NamesrvServer namesrv;
        try {
            namesrv = new NamesrvServer(namesrvConfig);
        } catch (ConfigException e) {
            LOG.error("bad name server configuration: {}", e.getMessage());
            return 1;
        }
        try {
            namesrv.start();
            started.add(0, namesrv);
            ControllerServer controller = null;
            if (controllerConfig != null) {
                controller = new ControllerServer(controllerConfig);
                started.add(0, controller);
                controller.start();
                LOG.info("controller {} started beside the name server on {}", controllerConfig.selfId(), controller.address());
            }
            // Closed first: its gauges read the servers.
            started.add(0, ServerMetrics.namesrv(metricsConfig, namesrv, controller));
        } catch (RuntimeException e) {
            LOG.error("name server failed to start on {}:{}: {}", namesrvConfig.bindAddress(), namesrvConfig.listenPort(),
                    e.toString());
            Lifetime.closeAll(started);
            namesrv.close();
            return 1;
        }
        LOG.info("The Name Server boot success. serializeType=JSON, address {}", namesrv.address());
        Lifetime.runUntilShutdown("Namesrv", started);
        return 0;
    }
}
