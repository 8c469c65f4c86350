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
        if (groups.computeIfAbsent(group, g -> new ConcurrentHashMap<>()).put(channel, info) == null) {
            LOG.info("producer {} ({}) joined group {}", clientId, channel.remoteAddressText(), group);
        }
    }

    public void unregister(String group, RemotingChannel channel) {
        Map<RemotingChannel, ClientChannelInfo> channels = groups.get(group);
        if (channels != null && channels.remove(channel) != null) {
            groups.computeIfPresent(group, (g, c) -> c.isEmpty() ? null : c);
        }
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
                if (info.lastUpdateMillis() < deadline && entry.getValue().remove(info.channel(), info)) {
                    LOG.warn("producer {} of group {} expired", info.clientId(), entry.getKey());
                    info.channel().close();
                    removed++;
                }
            }
            groups.computeIfPresent(entry.getKey(), (g, c) -> c.isEmpty() ? null : c);
        }
        return removed;
    }

    /** Live connections of {@code group}, ordered by client id; empty when unknown. */
    public List<ClientChannelInfo> connections(String group) {
        Map<RemotingChannel, ClientChannelInfo> channels = groups.get(group);
        return channels == null ? List.of() : channels.values().stream()
                .sorted(Comparator.comparing(ClientChannelInfo::clientId)).toList();
    }

    /** A live connection of any group whose client id is {@code clientId}. */
    public Optional<ClientChannelInfo> findByClientId(String clientId) {
        return groups.values().stream().flatMap(m -> m.values().stream())
                .filter(i -> i.clientId().equals(clientId) && i.channel().isActive()).findFirst();
    }
}
