package org.modmq.broker.config;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * How the broker registers with the name servers ({@code namesrvAddr}, {@code registerNameServerPeriod},
 * {@code registerBrokerTimeoutMills}, {@code forceRegister}). Immutable.
 *
 * @param addresses every name server, {@code host:port}; empty disables registration
 * @param registerPeriodMillis period of the full registration, clamped to [10 000, 60 000] ms
 * @param registerTimeoutMillis timeout of one REGISTER_BROKER request, in ms
 */
public record NameServerConfig(List<String> addresses, long registerPeriodMillis, long registerTimeoutMillis) {

    public static final long MIN_PERIOD_MILLIS = 10_000;
    public static final long MAX_PERIOD_MILLIS = 60_000;

    public NameServerConfig {
        addresses = List.copyOf(Objects.requireNonNull(addresses, "addresses"));
    }

    static NameServerConfig read(ConfigReader reader) {
        String raw = reader.string("namesrvAddr", "");
        List<String> addresses = Arrays.stream(raw.split(";")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        for (String address : addresses) {
            int colon = address.lastIndexOf(':');
            if (colon <= 0 || !address.substring(colon + 1).matches("\\d{1,5}")) {
                throw reader.bad("namesrvAddr", raw, "host:port entries separated by ';'");
            }
        }
        long period = reader.longIn("registerNameServerPeriod", 30_000, 0, Long.MAX_VALUE);
        period = Math.max(MIN_PERIOD_MILLIS, Math.min(MAX_PERIOD_MILLIS, period));
        long timeout = reader.longIn("registerBrokerTimeoutMills", 24_000, 1, 600_000);
        return new NameServerConfig(addresses, period, timeout);
    }
}
