package org.modmq.broker;

import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import org.modmq.api.config.ConfigException;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.BrokerConfigParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command-line entry point: {@code BrokerStartup -c broker.conf}. Starts a {@link BrokerServer},
 * closes it from a shutdown hook (SIGTERM, SIGINT) and exits 1 on a configuration or start-up error.
 */
public final class BrokerStartup {

    private BrokerStartup() {
    }

    public static void main(String[] args) {
        // No logger in a static field here: the warm-up thread's first steps run while this one sets up
        // logging, which it then reports done.
        StartupWarmup.start();
        Logger log = LoggerFactory.getLogger(BrokerStartup.class);
        StartupWarmup.loggingReady();
        Path configFile = configFile(args);
        if (configFile == null) {
            log.error("usage: BrokerStartup -c <broker.conf>");
            System.exit(1);
            return;
        }
        BrokerServer broker;
        try {
            BrokerConfig config = BrokerConfigParser.parse(configFile);
            broker = new BrokerServer(config, Clock.systemUTC()).start();
        } catch (ConfigException e) {
            log.error("broker configuration error: {}", e.getMessage());
            System.exit(1);
            return;
        } catch (RuntimeException e) {
            log.error("broker failed to start", e);
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                broker.close();
            } finally {
                stopped.countDown();
            }
        }, "BrokerShutdownHook"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The file of the last {@code -c}/{@code --config} option, or null: {@code bin/mqbroker} passes
     * {@code -c conf/broker.conf} before the user's arguments, so a later option overrides it.
     */
    static Path configFile(String[] args) {
        Path file = null;
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("-c") || args[i].equals("--config")) {
                file = Path.of(args[++i]);
            }
        }
        return file;
    }
}
