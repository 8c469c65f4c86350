package org.modmq.broker.client;

import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.modmq.remoting.netty.RemotingChannel;

/** Mutable state of one consumer group. Thread-safe: every method is synchronized. */
final class ConsumerGroupState {

    private final String groupName;
    private final Map<RemotingChannel, ClientChannelInfo> channels = new LinkedHashMap<>();
    private final Map<String, SubscriptionData> subscriptions = new HashMap<>();
    private String consumeType;
    private String messageModel;
    private String consumeFromWhere;

    ConsumerGroupState(String groupName) {
        this.groupName = Objects.requireNonNull(groupName, "groupName");
    }

    /** Records a heartbeat; returns whether the member set changed. */
    synchronized boolean updateChannel(ClientChannelInfo info, ConsumerData data) {
        consumeType = data.consumeType();
        messageModel = data.messageModel();
        consumeFromWhere = data.consumeFromWhere();
        ClientChannelInfo previous = channels.put(info.channel(), info);
        return previous == null || !previous.clientId().equals(info.clientId());
    }

    /**
     * Applies a heartbeat's subscriptions: new topics are added, a larger {@code subVersion}
     * replaces, topics no longer listed are removed. Returns whether anything changed.
     */
    synchronized boolean updateSubscriptions(Iterable<SubscriptionData> incoming) {
        boolean changed = false;
        Map<String, SubscriptionData> listed = new HashMap<>();
        for (SubscriptionData sub : incoming) {
            listed.put(sub.topic(), sub);
            SubscriptionData old = subscriptions.get(sub.topic());
            if (old == null || sub.subVersion() > old.subVersion()) {
                subscriptions.put(sub.topic(), sub);
                changed = true;
            }
        }
        changed |= subscriptions.keySet().retainAll(listed.keySet());
        return changed;
    }

    synchronized boolean removeChannel(RemotingChannel channel) {
        return channels.remove(channel) != null;
    }

    /** Removes channels silent since before {@code deadlineMillis}; returns whether any was removed. */
    synchronized boolean removeSilentSince(long deadlineMillis) {
        return channels.values().removeIf(info -> info.lastUpdateMillis() < deadlineMillis);
    }

    synchronized boolean isEmpty() {
        return channels.isEmpty();
    }

    synchronized ConsumerGroupView view() {
        return new ConsumerGroupView(groupName, consumeType, messageModel, consumeFromWhere,
                channels.values().stream().sorted(Comparator.comparing(ClientChannelInfo::clientId)).toList(),
                subscriptions);
    }
}
