package org.modmq.launcher;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.modmq.api.config.ConfigException;
import org.modmq.controller.ControllerConfig;
import org.modmq.controller.ControllerServer;
import org.modmq.metrics.MetricsConfig;
import org.modmq.metrics.MetricsEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command-line entry point of a controller peer ({@code bin/mqcontroller}).
 *
 * <pre>
 * mqcontroller [-c controller.conf] [-p] [-h]
 *   -c FILE  read settings from FILE (keys: {@link ControllerConfig}); without it, one controller on 127.0.0.1:9878
 *   -p       log the effective settings and exit
 *   -h       log this usage and exit
 * </pre>
 *
 * {@code metricsExporterType=PROM} in the file serves {@code /metrics} on
 * {@code metricsPromExporterHost:metricsPromExporterPort} (default 127.0.0.1:5559).
 * Runs until SIGTERM/SIGINT. Exit status 1 on a bad argument or setting, or when a port or the store
 * cannot be used.
 */
public final class ControllerLauncher {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerLauncher.class);
    private static final String USAGE = "usage: mqcontroller [-c controller.conf] [-p] [-h]";

    private ControllerLauncher() {
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
        ControllerConfig config;
        MetricsConfig metricsConfig;
        try {
            if (options.file() == null) {
                config = ControllerConfig.defaults();
                metricsConfig = MetricsConfig.disabled(MetricsConfig.CONTROLLER_PORT);
            } else {
                Map<String, String> values = new TreeMap<>(ConfFiles.read(options.file()));
                metricsConfig = MetricsConfig.take(values, MetricsConfig.CONTROLLER_PORT, options.file().toString());
                try {
                    config = ControllerConfig.parse(values, LOG::warn);
                } catch (ConfigException e) {
                    throw new ConfigException(options.file() + ": " + e.getMessage());
                }
            }
        } catch (ConfigException e) {
            LOG.error("bad controller configuration: {}", e.getMessage());
            return 1;
        }
        if (options.print()) {
            config.asProperties().forEach((key, value) -> LOG.info("{}={}", key, value));
            metricsConfig.asProperties().forEach((key, value) -> LOG.info("{}={}", key, value));
            return 0;
        }
        ControllerServer controller;
        try {
            controller = new ControllerServer(config);
        } catch (ConfigException e) {
            LOG.error("bad controller configuration: {}", e.getMessage());
            return 1;
        }
        MetricsEndpoint metrics;
        try {
            controller.start();
            metrics = ServerMetrics.controller(metricsConfig, controller);
        } catch (RuntimeException e) {
            LOG.error("controller {} failed to start on {}: {}", config.selfId(), config.self().remotingAddress(), e.toString());
            controller.close();
            return 1;
        }
        LOG.info("The controller {} boot success, address {}, group {}", config.selfId(), controller.address(), config.group());
        Lifetime.runUntilShutdown("Controller", List.of(metrics, controller));
        return 0;
    }
}
