package org.modmq.broker.client;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.remoting.netty.RemotingChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live consumer groups as learned from heartbeats: per group the connections (client id, language,
 * version, last heartbeat), the subscriptions and the consume settings. Membership changes (a new
 * channel, a subscription change, a channel closed, unregistered or expired) are reported to the
 * {@link ConsumerIdsChangeListener}, except for BROADCASTING groups. Thread-safe.
 */
public final class ConsumerGroupRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerGroupRegistry.class);

    private final Clock clock;
    private final ConsumerIdsChangeListener listener;
    private final Map<String, ConsumerGroupState> groups = new ConcurrentHashMap<>();

    public ConsumerGroupRegistry(Clock clock, ConsumerIdsChangeListener listener) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * Records one heartbeat's consumer data for {@code channel}.
     *
     * @param keepSubscriptions true for a V2 heartbeat sent without subscriptions
     * @return whether the group's members or subscriptions changed (the listener has been told)
     */
    public boolean register(RemotingChannel channel, String clientId, String language, int version,
                            ConsumerData data, boolean keepSubscriptions) {
        ClientChannelInfo info = new ClientChannelInfo(channel, clientId, language, version, clock.millis());
        boolean[] changed = new boolean[1];
        // Updating inside compute() keeps a concurrent removal of an emptied group from orphaning this state.
        ConsumerGroupState state = groups.compute(data.groupName(), (name, current) -> {
            ConsumerGroupState target = current == null ? new ConsumerGroupState(name) : current;
            changed[0] = target.updateChannel(info, data);
            if (!keepSubscriptions) {
                changed[0] |= target.updateSubscriptions(data.subscriptionDataSet());
            }
            return target;
        });
        if (changed[0]) {
            LOG.info("consumer {} ({}) registered in group {}", clientId, channel.remoteAddressText(), data.groupName());
            fire(state.view());
        }
        return changed[0];
    }

    /** Removes {@code channel} from {@code group} (UNREGISTER_CLIENT). */
    public void unregister(String group, RemotingChannel channel) {
        ConsumerGroupState state = groups.get(group);
        if (state != null && state.removeChannel(channel)) {
            LOG.info("consumer on {} left group {}", channel.remoteAddressText(), group);
            afterRemoval(group, state);
        }
    }

    /** Removes a closed connection from every group. */
    public void channelClosed(RemotingChannel channel) {
        groups.forEach((group, state) -> {
            if (state.removeChannel(channel)) {
                LOG.info("consumer connection {} of group {} closed", channel.remoteAddressText(), group);
                afterRemoval(group, state);
            }
        });
    }

    /**
     * Drops connections without a heartbeat for {@code timeoutMillis}.
     *
     * @return the number of groups that lost a member
     */
    public int expire(long timeoutMillis) {
        long deadline = clock.millis() - timeoutMillis;
        int affected = 0;
        for (Map.Entry<String, ConsumerGroupState> entry : groups.entrySet()) {
            List<ClientChannelInfo> before = entry.getValue().view().channels();
            if (entry.getValue().removeSilentSince(deadline)) {
                affected++;
                before.stream().filter(i -> i.lastUpdateMillis() < deadline).forEach(i -> {
                    LOG.warn("consumer {} of group {} expired after {} ms without heartbeat", i.clientId(),
                            entry.getKey(), timeoutMillis);
                    i.channel().close();
                });
                afterRemoval(entry.getKey(), entry.getValue());
            }
        }
        return affected;
    }

    public Optional<ConsumerGroupView> group(String group) {
        ConsumerGroupState state = groups.get(group);
        return state == null ? Optional.empty() : Optional.of(state.view());
    }

    /** Every group with at least one live connection. */
    public List<ConsumerGroupView> groups() {
        List<ConsumerGroupView> views = new ArrayList<>();
        groups.values().forEach(s -> {
            ConsumerGroupView view = s.view();
            if (!view.channels().isEmpty()) {
                views.add(view);
            }
        });
        return views;
    }

    /** Finds a live connection of {@code group} by client id. */
    public Optional<ClientChannelInfo> find(String group, String clientId) {
        return group(group).flatMap(v -> v.channels().stream().filter(c -> c.clientId().equals(clientId)).findFirst());
    }

    private void afterRemoval(String group, ConsumerGroupState state) {
        ConsumerGroupView view = state.view();
        groups.computeIfPresent(group, (name, current) -> current == state && current.isEmpty() ? null : current);
        fire(view);
    }

    private void fire(ConsumerGroupView view) {
        if (view.isBroadcasting()) {
            return;
        }
        try {
            listener.consumerIdsChanged(view);
        } catch (RuntimeException e) {
            LOG.warn("consumer-ids listener failed for group {}", view.groupName(), e);
        }
    }
}
