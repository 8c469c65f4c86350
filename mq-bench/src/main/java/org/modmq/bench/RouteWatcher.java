package org.modmq.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;

/**
 * Polls the name server's cluster info (GET_BROKER_CLUSTER_INFO, what {@code mqadmin clusterList}
 * shows) for one broker set every few milliseconds and records what it sees in a {@link RouteLog}. The
 * interval is a fixed delay after each answer, so a slow name server is polled less often rather than
 * piled up. Owns one daemon thread; {@link #close()} stops it and is idempotent.
 */
final class RouteWatcher implements AutoCloseable {

    private static final long POLL_TIMEOUT_MILLIS = 1_000;

    private final MQClientAPIImpl api;
    private final String brokerName;
    private final RouteLog log;
    private final ScheduledExecutorService timer;

    /**
     * Starts polling at once.
     *
     * @param api        a started client's API (its name-server list is the one polled)
     * @param brokerName the broker set to watch
     * @param pollMillis delay between an answer and the next request, at least 1
     */
    RouteWatcher(MQClientAPIImpl api, String brokerName, RouteLog log, long pollMillis) {
        this.api = Objects.requireNonNull(api, "api");
        this.brokerName = Objects.requireNonNull(brokerName, "brokerName");
        this.log = Objects.requireNonNull(log, "log");
        if (pollMillis < 1) {
            throw new IllegalArgumentException("pollMillis must be at least 1: " + pollMillis);
        }
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "bench-route-watcher");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::poll, 0, pollMillis, TimeUnit.MILLISECONDS);
    }

    private void poll() {
        try {
            ClusterInfo info = api.getBrokerClusterInfo(POLL_TIMEOUT_MILLIS);
            long answered = System.nanoTime();
            Map<Long, String> addresses = new HashMap<>();
            if (info != null && info.getBrokerAddrTable() != null) {
                BrokerData data = info.getBrokerAddrTable().get(brokerName);
                if (data != null && data.getBrokerAddrs() != null) {
                    addresses.putAll(data.getBrokerAddrs());
                }
            }
            log.record(new BrokerSetView(answered, addresses));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // A name server that does not answer is part of what is measured: counted, polled again.
            log.recordError();
        }
    }

    /** Stops polling and waits for a poll in flight (bounded by its timeout); idempotent. */
    @Override
    public void close() {
        if (!timer.isShutdown()) {
            timer.shutdownNow();
            try {
                timer.awaitTermination(POLL_TIMEOUT_MILLIS * 2, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
