package org.modmq.broker.client;

import java.util.Objects;
import java.util.Set;

/**
 * One topic subscription of a consumer group, JSON shape of RocketMQ's {@code SubscriptionData}.
 * Immutable.
 *
 * @param topic the topic
 * @param subString {@code *} or {@code TagA || TagB} (or an SQL92 expression)
 * @param tagsSet trimmed tags
 * @param codeSet {@code String.hashCode()} of each tag
 * @param expressionType {@code TAG} or {@code SQL92}
 * @param subVersion client-side creation time in ms; grows on re-subscription
 * @param classFilterMode legacy class filter flag
 * @param filterClassSource legacy class filter source, usually absent
 */
public record SubscriptionData(String topic, String subString, Set<String> tagsSet, Set<Integer> codeSet,
                               String expressionType, long subVersion, boolean classFilterMode,
                               String filterClassSource) {

    public SubscriptionData {
        Objects.requireNonNull(topic, "topic");
        subString = subString == null ? "*" : subString;
        tagsSet = tagsSet == null ? Set.of() : Set.copyOf(tagsSet);
        codeSet = codeSet == null ? Set.of() : Set.copyOf(codeSet);
        expressionType = expressionType == null ? "TAG" : expressionType;
    }

    /** Whether every tag matches ({@code *} or an empty TAG expression). */
    public boolean matchesAll() {
        return "TAG".equals(expressionType) && (subString.isBlank() || subString.trim().equals("*"));
    }
}
