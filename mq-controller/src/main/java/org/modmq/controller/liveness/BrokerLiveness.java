package org.modmq.controller.liveness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The brokers this controller peer hears from: node-local, not replicated, as in RocketMQ's DLedger
 * mode where brokers send {@code BROKER_HEARTBEAT} to every controller. A broker is active while its
 * last heartbeat is younger than its {@code heartbeatTimeoutMills}; when the connection its heartbeats
 * come on closes, it is inactive at once.
 *
 * <p>Threading: thread-safe; heartbeats arrive on processor threads, closes on I/O threads.
 */
public final class BrokerLiveness {

    private final Map<BrokerKey, LiveBroker> table = new ConcurrentHashMap<>();
    /** Connections whose broker said (modmq) that it takes role-change notices on them. */
    private final java.util.Set<Object> noticeChannels = ConcurrentHashMap.newKeySet();
    /** The longest heartbeat timeout each broker ever named here; kept after its connection closes. */
    private final Map<BrokerKey, Long> declaredTimeouts = new ConcurrentHashMap<>();
    private final Ticker ticker;

    /** @param ticker the monotonic clock heartbeats are stamped with */
    public BrokerLiveness(Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
    }

    /**
     * Records a heartbeat. Epoch, max offset and confirm offset only move forward (a report of an older
     * epoch, or of a smaller offset at the same epoch, keeps the newer one), as RocketMQ does; time,
     * timeout, priority, address and connection always take the new values.
     *
     * @param heartbeat the heartbeat
     * @param channel   the connection it came on, or null
     * @return whether this broker was not active before
     */
    public boolean onHeartbeat(Heartbeat heartbeat, Object channel) {
        Objects.requireNonNull(heartbeat, "heartbeat");
        long now = ticker.millis();
        declaredTimeouts.merge(heartbeat.key(), heartbeat.heartbeatTimeoutMillis(), Math::max);
        boolean[] wasInactive = {false};
        table.compute(heartbeat.key(), (key, prev) -> {
            wasInactive[0] = prev == null || !prev.activeAt(now);
            boolean newer = prev == null || heartbeat.epoch() > prev.epoch()
                    || (heartbeat.epoch() == prev.epoch() && heartbeat.maxOffset() > prev.maxOffset());
            return new LiveBroker(heartbeat.brokerAddr(), now, heartbeat.heartbeatTimeoutMillis(), channel,
                    newer ? heartbeat.epoch() : prev.epoch(), newer ? heartbeat.maxOffset() : prev.maxOffset(),
                    newer ? heartbeat.confirmOffset() : prev.confirmOffset(), heartbeat.electionPriority());
        });
        return wasInactive[0];
    }

    /**
     * Forgets every broker whose heartbeats came on {@code channel}.
     *
     * @return the brokers forgotten
     */
    public List<BrokerKey> onChannelClosed(Object channel) {
        Objects.requireNonNull(channel, "channel");
        noticeChannels.remove(channel);
        List<BrokerKey> removed = new ArrayList<>();
        for (Map.Entry<BrokerKey, LiveBroker> entry : table.entrySet()) {
            if (entry.getValue().channel() == channel && table.remove(entry.getKey(), entry.getValue())) {
                removed.add(entry.getKey());
            }
        }
        return removed;
    }

    /** The broker heartbeating on {@code channel} takes NOTIFY_BROKER_ROLE_CHANGED on it (modmq brokers). */
    public void acceptsNoticesOn(Object channel) {
        noticeChannels.add(Objects.requireNonNull(channel, "channel"));
    }

    /** @return the connection of {@code key}'s heartbeats when its broker takes notices on it */
    public Optional<Object> noticeChannel(BrokerKey key) {
        LiveBroker live = table.get(key);
        return live == null || live.channel() == null || !noticeChannels.contains(live.channel())
                ? Optional.empty() : Optional.of(live.channel());
    }

    /** @return whether {@code key} is active now */
    public boolean isActive(BrokerKey key) {
        LiveBroker live = table.get(key);
        return live != null && live.activeAt(ticker.millis());
    }

    /** @return what was last heard from {@code key}, if anything (active or not) */
    public Optional<LiveBroker> get(BrokerKey key) {
        return Optional.ofNullable(table.get(key));
    }

    /**
     * @return the longest heartbeat timeout {@code key} named in a heartbeat to this peer, also after its
     *     connection closed or it expired; empty when this peer never heard from it
     */
    public OptionalLong declaredTimeout(BrokerKey key) {
        Long timeout = declaredTimeouts.get(key);
        return timeout == null ? OptionalLong.empty() : OptionalLong.of(timeout);
    }

    /** @return how many brokers of each broker set are active now, keyed by [cluster name, broker name] */
    public Map<List<String>, Long> activeBySet() {
        long now = ticker.millis();
        Map<List<String>, Long> counts = new HashMap<>();
        table.forEach((key, live) -> {
            if (live.activeAt(now)) {
                counts.merge(List.of(key.clusterName(), key.brokerName()), 1L, Long::sum);
            }
        });
        return counts;
    }

    /** @return the current reading of the clock heartbeats are stamped with */
    public long now() {
        return ticker.millis();
    }

    /**
     * Forgets brokers silent for longer than their timeout plus {@code graceMillis}.
     *
     * @return how many were forgotten
     */
    public int expire(long graceMillis) {
        long now = ticker.millis();
        int before = table.size();
        table.values().removeIf(live -> now - live.lastHeartbeatMillis() > live.heartbeatTimeoutMillis() + graceMillis);
        return before - table.size();
    }
}
