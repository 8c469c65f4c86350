package org.modmq.metrics;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.modmq.api.config.ConfigException;

/**
 * Whether and where a server exports its figures, from RocketMQ 5's keys. Immutable and thread-safe.
 *
 * <table>
 * <caption>Keys</caption>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code metricsExporterType}</td><td>{@code DISABLE}</td><td>{@code PROM} serves {@code /metrics};
 *     RocketMQ's other exporters ({@code OTLP_GRPC}, {@code LOG}) are refused</td></tr>
 * <tr><td>{@code metricsPromExporterHost}</td><td>{@code 127.0.0.1}</td><td>address the endpoint binds</td></tr>
 * <tr><td>{@code metricsPromExporterPort}</td><td>per server: {@value #BROKER_PORT} broker,
 *     {@value #NAMESRV_PORT} name server, {@value #CONTROLLER_PORT} controller</td><td>0 picks a free port</td></tr>
 * </table>
 *
 * @param type  the exporter
 * @param host  the address to bind
 * @param port  the port to bind, 0..65535
 */
public record MetricsConfig(ExporterType type, String host, int port) {

    /** RocketMQ's key names. */
    public static final String TYPE_KEY = "metricsExporterType";
    public static final String HOST_KEY = "metricsPromExporterHost";
    public static final String PORT_KEY = "metricsPromExporterPort";

    /** Every key this record reads. */
    public static final Set<String> KEYS = Set.of(TYPE_KEY, HOST_KEY, PORT_KEY);

    /** Default ports: RocketMQ's broker default, and the next two for modmq's name server and controller. */
    public static final int BROKER_PORT = 5557;
    public static final int NAMESRV_PORT = 5558;
    public static final int CONTROLLER_PORT = 5559;

    public static final String DEFAULT_HOST = "127.0.0.1";

    /** RocketMQ's {@code MetricsExporterType} values that modmq knows; only two of them are served. */
    public enum ExporterType {
        DISABLE, PROM
    }

    private static final Set<String> UNSUPPORTED = Set.of("OTLP_GRPC", "LOG");

    public MetricsConfig {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new ConfigException(HOST_KEY + " is blank");
        }
        if (port < 0 || port > 65535) {
            throw new ConfigException(PORT_KEY + "=" + port + " is not valid: expected an integer in [0, 65535]");
        }
    }

    /** Exporting off (the default of every server). */
    public static MetricsConfig disabled(int defaultPort) {
        return new MetricsConfig(ExporterType.DISABLE, DEFAULT_HOST, defaultPort);
    }

    /** Whether {@code /metrics} is served. */
    public boolean enabled() {
        return type == ExporterType.PROM;
    }

    /**
     * Reads the keys from {@code values} (absent or empty means the default).
     *
     * @param values      key to value
     * @param defaultPort the server's default port
     * @param source      names the file or configuration in errors
     * @throws ConfigException on an unknown or unsupported exporter type, a blank host or a bad port
     */
    public static MetricsConfig parse(Function<String, Optional<String>> values, int defaultPort, String source) {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(source, "source");
        Optional<String> type = values.apply(TYPE_KEY).map(String::trim).filter(v -> !v.isEmpty());
        Optional<String> host = values.apply(HOST_KEY).map(String::trim).filter(v -> !v.isEmpty());
        Optional<String> port = values.apply(PORT_KEY).map(String::trim).filter(v -> !v.isEmpty());
        return new MetricsConfig(type.map(t -> exporterType(t, source)).orElse(ExporterType.DISABLE),
                host.orElse(DEFAULT_HOST), port.map(p -> port(p, source)).orElse(defaultPort));
    }

    /**
     * Takes the keys out of {@code values} (a mutable map) and reads them, for a server whose own parser
     * does not know them.
     *
     * @throws ConfigException as {@link #parse}
     */
    public static MetricsConfig take(Map<String, String> values, int defaultPort, String source) {
        Map<String, String> own = new TreeMap<>();
        for (String key : KEYS) {
            String value = values.remove(key);
            if (value != null) {
                own.put(key, value);
            }
        }
        return parse(key -> Optional.ofNullable(own.get(key)), defaultPort, source);
    }

    /**
     * The exporter type named by {@code text} (case-insensitive).
     *
     * @throws ConfigException for RocketMQ's OTLP_GRPC and LOG (not supported) and any other value
     */
    public static ExporterType exporterType(String text, String source) {
        String upper = text.trim().toUpperCase(Locale.ROOT);
        for (ExporterType type : ExporterType.values()) {
            if (type.name().equals(upper)) {
                return type;
            }
        }
        if (UNSUPPORTED.contains(upper)) {
            throw new ConfigException(TYPE_KEY + "=" + text + " in " + source + " is not supported: modmq exports "
                    + "metrics only to Prometheus (PROM); use one of " + Arrays.toString(ExporterType.values()));
        }
        throw new ConfigException(TYPE_KEY + "=" + text + " in " + source + " is not valid: expected one of "
                + Arrays.toString(ExporterType.values()));
    }

    private static int port(String text, String source) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below with the allowed range
        }
        throw new ConfigException(PORT_KEY + "=" + text + " in " + source
                + " is not valid: expected an integer in [0, 65535]");
    }

    /** The settings as {@code key=value} pairs. */
    public Map<String, String> asProperties() {
        Map<String, String> map = new TreeMap<>();
        map.put(TYPE_KEY, type.name());
        map.put(HOST_KEY, host);
        map.put(PORT_KEY, Integer.toString(port));
        return map;
    }
}
