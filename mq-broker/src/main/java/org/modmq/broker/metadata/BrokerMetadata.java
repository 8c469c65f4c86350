package org.modmq.broker.metadata;

import java.time.Clock;
import java.util.Objects;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.remoting.protocol.JsonBodyException;

/**
 * The broker's persistent metadata tables under {@code <storePathRootDir>/config}. Each table is
 * thread-safe on its own.
 *
 * @param topics {@code topics.json}
 * @param consumerOffsets {@code consumerOffset.json}
 * @param subscriptionGroups {@code subscriptionGroup.json}
 * @param delayOffsets {@code delayOffset.json}
 */
public record BrokerMetadata(TopicConfigTable topics, ConsumerOffsetTable consumerOffsets,
                             SubscriptionGroupTable subscriptionGroups, DelayOffsetTable delayOffsets) {

    public BrokerMetadata {
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(consumerOffsets, "consumerOffsets");
        Objects.requireNonNull(subscriptionGroups, "subscriptionGroups");
        Objects.requireNonNull(delayOffsets, "delayOffsets");
    }

    /**
     * Loads (or creates) every table.
     *
     * @throws JsonBodyException when a file is corrupt
     */
    public static BrokerMetadata open(BrokerConfig config, Clock clock) {
        var dir = config.store().configDir();
        return new BrokerMetadata(
                new TopicConfigTable(dir, clock, config.identity(), config.topics()),
                new ConsumerOffsetTable(dir, clock),
                new SubscriptionGroupTable(dir, clock, config.topics().autoCreateSubscriptionGroup()),
                new DelayOffsetTable(dir, clock));
    }

    /** Writes the periodically persisted tables (offsets); topics and groups are written on change. */
    public void persist() {
        consumerOffsets.persist();
        delayOffsets.persist();
    }
}
