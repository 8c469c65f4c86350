package org.modmq.broker.client;

import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.remoting.netty.RemotingChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live producer connections per producer group, from heartbeats (needed for transaction check-backs
 * and request-reply). Thread-safe.
 */
public final class ProducerRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(ProducerRegistry.class);

    private final Clock clock;
    private final Map<String, Map<RemotingChannel, ClientChannelInfo>> groups = new ConcurrentHashMap<>();

    public ProducerRegistry(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public void register(RemotingChannel channel, String clientId, String language, int version, String group) {
        ClientChannelInfo info = new ClientChannelInfo(channel, clientId, language, version, clock.millis());
        boolean[] added = new boolean[1];
        groups.compute(group, (g, channels) -> {
            Map<RemotingChannel, ClientChannelInfo> target = channels == null ? new ConcurrentHashMap<>() : channels;
            added[0] = target.put(channel, info) == null;
            return target;
        });
        if (added[0]) {
            LOG.info("producer {} ({}) joined group {}", clientId, channel.remoteAddressText(), group);
        }
    }

    public void unregister(String group, RemotingChannel channel) {
        groups.computeIfPresent(group, (g, channels) -> {
            channels.remove(channel);
            return channels.isEmpty() ? null : channels;
        });
    }

    public void channelClosed(RemotingChannel channel) {
        groups.keySet().forEach(group -> unregister(group, channel));
    }

    /** Drops connections without a heartbeat for {@code timeoutMillis}; returns how many. */
    public int expire(long timeoutMillis) {
        long deadline = clock.millis() - timeoutMillis;
        int removed = 0;
        for (Map.Entry<String, Map<RemotingChannel, ClientChannelInfo>> entry : groups.entrySet()) {
            for (ClientChannelInfo info : List.copyOf(entry.getValue().values())) {
                boolean[] expired = new boolean[1];
                if (info.lastUpdateMillis() < deadline) {
                    groups.computeIfPresent(entry.getKey(), (g, channels) -> {
                        expired[0] = channels.remove(info.channel(), info);
                        return channels.isEmpty() ? null : channels;
                    });
                }
                if (expired[0]) {
                    LOG.warn("producer {} of group {} expired", info.clientId(), entry.getKey());
                    info.channel().close();
                    removed++;
                }
            }
        }
        return removed;
    }

    /** Live connections of {@code group}, ordered by client id; empty when unknown. */
    public List<ClientChannelInfo> connections(String group) {
        Map<RemotingChannel, ClientChannelInfo> channels = groups.get(group);
        return channels == null ? List.of() : channels.values().stream()
                .sorted(Comparator.comparing(ClientChannelInfo::clientId)).toList();
    }

    /** Every producer connection of every group (one per group a client produces for). */
    public List<ClientChannelInfo> allConnections() {
        return groups.values().stream().flatMap(m -> m.values().stream()).toList();
    }

    /** A live connection of any group whose client id is {@code clientId}. */
    public Optional<ClientChannelInfo> findByClientId(String clientId) {
        return groups.values().stream().flatMap(m -> m.values().stream())
                .filter(i -> i.clientId().equals(clientId) && i.channel().isActive()).findFirst();
    }
}
