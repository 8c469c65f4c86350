package org.modmq.broker.config;

/**
 * How topics and subscription groups come into being ({@code autoCreateTopicEnable},
 * {@code autoCreateSubscriptionGroup}, {@code defaultTopicQueueNums}). Immutable.
 *
 * @param autoCreateTopicEnable whether {@code TBW102} exists, so producers can send to unknown topics
 * @param autoCreateSubscriptionGroup whether an unknown consumer group is created on first use
 * @param defaultTopicQueueNums queue count of {@code TBW102} and of topics created without one
 */
public record TopicDefaultsConfig(boolean autoCreateTopicEnable, boolean autoCreateSubscriptionGroup,
                                  int defaultTopicQueueNums) {

    static TopicDefaultsConfig read(ConfigReader reader) {
        return new TopicDefaultsConfig(
                reader.bool("autoCreateTopicEnable", true),
                reader.bool("autoCreateSubscriptionGroup", true),
                reader.intIn("defaultTopicQueueNums", 8, 1, 1024));
    }
}
