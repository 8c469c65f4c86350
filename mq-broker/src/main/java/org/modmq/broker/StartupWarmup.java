package org.modmq.broker;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.remoting.netty.NettyWarmup;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.slf4j.LoggerFactory;

/**
 * Runs on a second thread the cold code that a broker's start needs next, while the main thread reads
 * the configuration and opens the store: logging's set-up, the platform MXBeans, Jackson's bindings of
 * the metadata files' types and Netty's transport and allocator. Class initialisation and Jackson's
 * (de)serializer caches are shared and thread-safe, so the main thread then finds them ready instead of
 * running them itself, which cost a restarted broker about a tenth of a second. Only the first step is
 * waited for ({@link #awaitLogging()}); a failure only loses the head start.
 */
final class StartupWarmup {

    private static final CountDownLatch BEGUN = new CountDownLatch(1);
    private static final CountDownLatch LOGGING = new CountDownLatch(1);

    private StartupWarmup() {
    }

    /** Starts the thread and returns once it is about to set up logging, so that it, not the caller, does. */
    static void start() {
        Thread thread = new Thread(StartupWarmup::run, "StartupWarmup");
        thread.setDaemon(true);
        thread.start();
        await(BEGUN, 1);
    }

    /**
     * Waits (at most 5 s) until slf4j is set up, by this thread or by the caller's own first logger. An
     * event logged while slf4j is still initialising would be queued and replayed with a notice on stderr,
     * so the main thread logs nothing before this returns.
     */
    static void awaitLogging() {
        await(LOGGING, 5);
    }

    private static void await(CountDownLatch latch, int seconds) {
        try {
            latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void run() {
        BEGUN.countDown();
        try {
            // Returns at once (a stand-in factory) if the main thread got there first; the main thread
            // has then finished the set-up by the time it waits for it.
            LoggerFactory.getILoggerFactory();
        } finally {
            LOGGING.countDown();
        }
        try {
            // The MXBean that BrokerLoad samples: its first lookup starts the platform's management code.
            ManagementFactory.getOperatingSystemMXBean();
            // The shapes the metadata files are read with (TopicConfigTable, SubscriptionGroupTable).
            TopicConfig topic = TopicConfig.defaults("warmup");
            Json.withDefaults(Json.mapper().valueToTree(topic), topic, TopicConfig.class);
            SubscriptionGroupConfig group = SubscriptionGroupConfig.defaults("warmup");
            Json.withDefaults(Json.mapper().valueToTree(group), group, SubscriptionGroupConfig.class);
            Json.mapper().convertValue(Json.tree(Json.encode(DataVersion.initial(Clock.systemUTC()))),
                    DataVersion.class);
            NettyWarmup.run();
        } catch (RuntimeException | LinkageError e) {
            LoggerFactory.getLogger(StartupWarmup.class).debug("start-up warm-up stopped early: {}", e.toString());
        }
    }
}
