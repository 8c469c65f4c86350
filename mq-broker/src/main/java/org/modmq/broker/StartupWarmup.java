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
 * Runs on a second thread the cold code that a broker's start needs next, while the main thread sets up
 * logging, reads the configuration and opens the store: the platform MXBeans, Jackson's bindings of the
 * metadata files' types and Netty's transport and allocator. Class initialisation and Jackson's
 * (de)serializer caches are shared and thread-safe, so the main thread then finds them ready instead of
 * running them itself, which cost a restarted broker about a tenth of a second. Nothing waits for it; a
 * failure only loses the head start.
 *
 * <p>The steps before {@link #loggingReady()} use no slf4j logger: slf4j hands a thread that asks while
 * another one is still setting it up a stand-in logger, which queues every event of any level and
 * replays them afterwards with a notice on stderr (Netty's start-up logs a score of DEBUG lines).
 */
final class StartupWarmup {

    private static final CountDownLatch LOGGING = new CountDownLatch(1);

    private StartupWarmup() {
    }

    static void start() {
        Thread thread = new Thread(StartupWarmup::run, "StartupWarmup");
        thread.setDaemon(true);
        thread.start();
    }

    /** The caller has set up slf4j (it has its first logger): the steps that log may run now. */
    static void loggingReady() {
        LOGGING.countDown();
    }

    static void run() {
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
            if (!LOGGING.await(5, TimeUnit.SECONDS)) {
                return;
            }
            NettyWarmup.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | LinkageError e) {
            LoggerFactory.getLogger(StartupWarmup.class).debug("start-up warm-up stopped early: {}", e.toString());
        }
    }
}
