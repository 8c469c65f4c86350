package org.modmq.broker;

import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.BrokerConfigParser;
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
 * SIGTERM/SIGINT close the broker, then the name server. Exits 1 on a configuration or start-up error.
 */
public final class StandaloneStartup {

    private static final Logger LOG = LoggerFactory.getLogger(StandaloneStartup.class);
    static final int NAMESRV_PORT = 9876;

    private StandaloneStartup() {
    }

    public static void main(String[] args) {
        NamesrvServer namesrv = null;
        BrokerServer broker;
        try {
            BrokerConfig config = config(args, "127.0.0.1:" + NAMESRV_PORT);
            namesrv = new NamesrvServer(NamesrvConfig.defaults().withListenPort(namesrvPort(config))).start();
            broker = new BrokerServer(config, Clock.systemUTC()).start();
        } catch (ConfigException e) {
            LOG.error("configuration error: {}", e.getMessage());
            closeQuietly(namesrv);
            System.exit(1);
            return;
        } catch (RuntimeException e) {
            LOG.error("standalone start failed", e);
            closeQuietly(namesrv);
            System.exit(1);
            return;
        }
        LOG.info("modmq standalone: name server {}, broker {}", namesrv.address(), broker.brokerAddr());
        NamesrvServer startedNamesrv = namesrv;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                broker.close();
            } finally {
                startedNamesrv.close();
                stopped.countDown();
            }
        }, "StandaloneShutdownHook"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The embedded defaults, overridden by {@code -c file}, with the store from {@code -d dir}. */
    static BrokerConfig config(String[] args, String namesrvAddr) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("brokerIP1", "127.0.0.1");
        values.put("listenPort", "10911");
        values.put("namesrvAddr", namesrvAddr);
        values.put("autoCreateTopicEnable", "true");
        values.put("storePathRootDir", Path.of(option(args, "-d", "store")).toAbsolutePath().toString());
        String file = option(args, "-c", null);
        String source = "embedded defaults";
        if (file != null) {
            values.putAll(BrokerConfigParser.parse(Path.of(file)).raw().asMap());
            source = file;
        }
        return BrokerConfigParser.parse(ConfigValues.of(values), source);
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

    private static void closeQuietly(NamesrvServer namesrv) {
        if (namesrv != null) {
            try {
                namesrv.close();
            } catch (RuntimeException e) {
                LOG.warn("closing the name server failed", e);
            }
        }
    }
}
