package org.modmq.namesrv;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.modmq.api.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command-line entry point of the name server.
 *
 * <pre>
 * namesrv [-c namesrv.conf] [-p] [-h]
 *   -c FILE  read settings from FILE (see {@link NamesrvConfig} for the keys); without it, defaults
 *   -p       log the effective settings and exit
 *   -h       log this usage and exit
 * </pre>
 *
 * Starts a {@link NamesrvServer}, logs its address and runs until the JVM is asked to stop
 * (SIGTERM/SIGINT), when a shutdown hook closes it. Exit status 1 on a bad argument or setting, or
 * when the port cannot be bound.
 */
public final class NamesrvStartup {

    private static final Logger LOG = LoggerFactory.getLogger(NamesrvStartup.class);
    private static final String USAGE = "usage: namesrv [-c namesrv.conf] [-p] [-h]";

    private NamesrvStartup() {
    }

    public static void main(String[] args) {
        int status = run(args);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs the name server until the JVM shuts down (or returns at once for {@code -p}, {@code -h}
     * and errors).
     *
     * @return the exit status
     */
    static int run(String[] args) {
        Path configFile = null;
        boolean print = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-c" -> {
                    if (i + 1 >= args.length) {
                        LOG.error("-c needs a file; {}", USAGE);
                        return 1;
                    }
                    configFile = Path.of(args[++i]);
                }
                case "-p" -> print = true;
                case "-h" -> {
                    LOG.info(USAGE);
                    return 0;
                }
                default -> {
                    LOG.error("unknown argument '{}'; {}", args[i], USAGE);
                    return 1;
                }
            }
        }
        NamesrvConfig config;
        try {
            config = configFile == null ? NamesrvConfig.defaults() : NamesrvConfig.load(configFile, LOG::warn);
        } catch (ConfigException e) {
            LOG.error("bad name server configuration: {}", e.getMessage());
            return 1;
        }
        if (print) {
            config.asProperties().forEach((key, value) -> LOG.info("{}={}", key, value));
            return 0;
        }
        return serve(config);
    }

    private static int serve(NamesrvConfig config) {
        NamesrvServer server;
        try {
            server = new NamesrvServer(config);
        } catch (ConfigException e) {
            LOG.error("bad name server configuration: {}", e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        try {
            server.start();
        } catch (RuntimeException e) {
            LOG.error("name server failed to start on {}:{}: {}", config.bindAddress(), config.listenPort(), e.toString());
            server.close();
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("shutdown requested");
            server.close();
            stopped.countDown();
        }, "NamesrvShutdownHook"));
        LOG.info("The Name Server boot success. serializeType=JSON, address {}", server.address());
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.close();
        }
        return 0;
    }
}
