package org.modmq.broker;

import java.time.Clock;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.remoting.netty.NettyWarmup;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs on a second thread the cold code that a broker's start needs next, while the main thread reads
 * the configuration and opens the store: Jackson's bindings of the metadata files' types and Netty's
 * transport and allocator. Class initialisation and Jackson's (de)serializer caches are shared and
 * thread-safe, so the main thread then finds them ready instead of running them itself, which cost a
 * restarted broker about a tenth of a second. Nothing waits for it; a failure only loses the head start.
 */
final class StartupWarmup {

    private static final Logger LOG = LoggerFactory.getLogger(StartupWarmup.class);

    private StartupWarmup() {
    }

    static void start() {
        Thread thread = new Thread(StartupWarmup::run, "StartupWarmup");
        thread.setDaemon(true);
        thread.start();
    }

    static void run() {
        try {
            // The shapes the metadata files are read with (TopicConfigTable, SubscriptionGroupTable).
            TopicConfig topic = TopicConfig.defaults("warmup");
            Json.withDefaults(Json.mapper().valueToTree(topic), topic, TopicConfig.class);
            SubscriptionGroupConfig group = SubscriptionGroupConfig.defaults("warmup");
            Json.withDefaults(Json.mapper().valueToTree(group), group, SubscriptionGroupConfig.class);
            Json.mapper().convertValue(Json.tree(Json.encode(DataVersion.initial(Clock.systemUTC()))),
                    DataVersion.class);
            NettyWarmup.run();
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("start-up warm-up stopped early: {}", e.toString());
        }
    }
}
