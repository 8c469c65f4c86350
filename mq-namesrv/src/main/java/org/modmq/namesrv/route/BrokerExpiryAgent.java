package org.modmq.namesrv.route;

import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Duty-cycle agent that drops brokers silent for longer than their timeout. The server runs
 * {@link #doWork()} every {@code scanNotActiveBrokerInterval}; tests step it by hand with a manual
 * clock. Thread-safe as far as {@link RouteTable} is; {@code doWork} is meant for one thread.
 */
public final class BrokerExpiryAgent {

    private final RouteTable routes;
    private final Consumer<Object> channelCloser;

    /**
     * @param routes        the table to scan
     * @param channelCloser closes the connection of an expired broker (given the channel it registered over)
     */
    public BrokerExpiryAgent(RouteTable routes, Consumer<Object> channelCloser) {
        this.routes = Objects.requireNonNull(routes, "routes");
        this.channelCloser = Objects.requireNonNull(channelCloser, "channelCloser");
    }

    /**
     * One scan.
     *
     * @return the number of brokers removed
     */
    public int doWork() {
        Map<BrokerAddrKey, BrokerLiveInfo> expired = routes.expireSilentBrokers();
        for (BrokerLiveInfo live : expired.values()) {
            if (live.channel() != null) {
                channelCloser.accept(live.channel());
            }
        }
        return expired.size();
    }
}
