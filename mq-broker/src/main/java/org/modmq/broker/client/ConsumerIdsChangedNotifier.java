package org.modmq.broker.client;

import java.util.Objects;
import java.util.function.Predicate;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends NOTIFY_CONSUMER_IDS_CHANGED (40, one-way, header {@code consumerGroup}) to every live
 * connection of a group whose membership changed, when the group allows it. Thread-safe; never blocks
 * (writes are asynchronous).
 */
public final class ConsumerIdsChangedNotifier implements ConsumerIdsChangeListener {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerIdsChangedNotifier.class);

    private final Predicate<String> notifyEnabled;

    /** @param notifyEnabled whether a group wants notifications ({@code notifyConsumerIdsChangedEnable}) */
    public ConsumerIdsChangedNotifier(Predicate<String> notifyEnabled) {
        this.notifyEnabled = Objects.requireNonNull(notifyEnabled, "notifyEnabled");
    }

    @Override
    public void consumerIdsChanged(ConsumerGroupView group) {
        if (!notifyEnabled.test(group.groupName())) {
            return;
        }
        for (ClientChannelInfo member : group.channels()) {
            RemotingChannel channel = member.channel();
            if (!channel.isActive()) {
                continue;
            }
            RemotingCommand notify = RemotingCommand.request(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED)
                    .putExtField("consumerGroup", group.groupName());
            channel.sendOneway(notify).whenComplete((ok, error) -> {
                if (error != null) {
                    LOG.info("cannot notify {} of group {} change: {}", member.clientId(), group.groupName(),
                            error.toString());
                }
            });
        }
    }
}
