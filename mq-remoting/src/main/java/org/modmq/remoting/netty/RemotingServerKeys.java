package org.modmq.remoting.netty;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.modmq.api.config.ConfigException;
import org.modmq.remoting.codec.RemotingFrameLayout;

/**
 * The configuration keys that bound what clients can make a remoting port hold, shared by the broker,
 * the name server and the controller, and the parsed {@link Limits}. Every bad value is a
 * {@link ConfigException} naming the key, the value and what is allowed. Stateless and thread-safe.
 *
 * <table>
 * <caption>Keys</caption>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code remotingMaxFrameBytes}</td><td>16777216 (16 MiB)</td><td>largest frame accepted, checked
 *     as soon as its length arrives; in [1 MiB, 1 GiB]</td></tr>
 * <tr><td>{@code remotingMaxPendingFrameBytes}</td><td>a quarter of Netty's direct memory, at least one
 *     frame + 1 MiB, at most 1 GiB</td><td>bytes of frames not yet complete, summed over all
 *     connections; a connection that would pass it is closed; at least {@code remotingMaxFrameBytes}</td></tr>
 * <tr><td>{@code remotingFrameReceiveTimeoutMillis}</td><td>30000</td><td>a frame not complete this long
 *     after its first byte closes its connection; 0 disables</td></tr>
 * <tr><td>{@code remotingMaxConnections}</td><td>20000</td><td>connections beyond this many are closed
 *     on accept</td></tr>
 * <tr><td>{@code serverChannelMaxIdleTimeSeconds}</td><td>120</td><td>(RocketMQ's key) a connection
 *     silent this long in both directions is closed; 0 disables</td></tr>
 * </table>
 */
public final class RemotingServerKeys {

    public static final String MAX_FRAME_BYTES = "remotingMaxFrameBytes";
    public static final String MAX_PENDING_FRAME_BYTES = "remotingMaxPendingFrameBytes";
    public static final String FRAME_RECEIVE_TIMEOUT_MILLIS = "remotingFrameReceiveTimeoutMillis";
    public static final String MAX_CONNECTIONS = "remotingMaxConnections";
    public static final String IDLE_SECONDS = "serverChannelMaxIdleTimeSeconds";
    /** Every key of this class. */
    public static final Set<String> KEYS = Set.of(MAX_FRAME_BYTES, MAX_PENDING_FRAME_BYTES,
            FRAME_RECEIVE_TIMEOUT_MILLIS, MAX_CONNECTIONS, IDLE_SECONDS);

    private static final long MIB = 1024 * 1024;
    private static final long MIN_FRAME_BYTES = MIB;
    private static final long MAX_FRAME_BYTES_LIMIT = 1024 * MIB;

    private RemotingServerKeys() {
    }

    /**
     * The bounds of one remoting port. Immutable.
     *
     * @param maxFrameBytes largest frame accepted
     * @param maxPendingFrameBytes bytes all connections together may hold in frames not yet complete
     * @param frameReceiveTimeout how long a frame may take to arrive after its first byte; zero disables
     * @param maxConnections open connections accepted
     * @param idleSeconds silence after which a connection is closed; 0 disables
     */
    public record Limits(int maxFrameBytes, long maxPendingFrameBytes, Duration frameReceiveTimeout,
                         int maxConnections, int idleSeconds) {

        public Limits {
            Objects.requireNonNull(frameReceiveTimeout, "frameReceiveTimeout");
        }

        /** The defaults of {@link RemotingServerConfig#of}. */
        public static Limits defaults() {
            return parse(key -> Optional.empty(), "(defaults)");
        }

        /** {@code base} with these bounds; host, port, threads and shutdown grace stay. */
        public RemotingServerConfig applyTo(RemotingServerConfig base) {
            return base.withMaxFrameLength(maxFrameBytes).withMaxPendingFrameBytes(maxPendingFrameBytes)
                    .withFrameReceiveTimeout(frameReceiveTimeout).withMaxConnections(maxConnections)
                    .withIdleSeconds(idleSeconds);
        }

        /** A server config bound to {@code host:port} with these bounds. */
        public RemotingServerConfig serverConfig(String host, int port) {
            return applyTo(RemotingServerConfig.of(host, port));
        }

        /** The bounds as {@code key=value} pairs, sorted by key. */
        public Map<String, String> asProperties() {
            Map<String, String> map = new TreeMap<>();
            map.put(MAX_FRAME_BYTES, Integer.toString(maxFrameBytes));
            map.put(MAX_PENDING_FRAME_BYTES, Long.toString(maxPendingFrameBytes));
            map.put(FRAME_RECEIVE_TIMEOUT_MILLIS, Long.toString(frameReceiveTimeout.toMillis()));
            map.put(MAX_CONNECTIONS, Integer.toString(maxConnections));
            map.put(IDLE_SECONDS, Integer.toString(idleSeconds));
            return map;
        }
    }

    /**
     * Parses the keys of this class.
     *
     * @param values the value of a key, empty when it is not set (an empty string counts as not set)
     * @param source names the file (or other source) in error messages
     * @throws ConfigException naming the key of the first bad value
     */
    public static Limits parse(Function<String, Optional<String>> values, String source) {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(source, "source");
        Reader reader = new Reader(values, source);
        int frame = (int) reader.longIn(MAX_FRAME_BYTES, RemotingFrameLayout.DEFAULT_MAX_FRAME_LENGTH,
                MIN_FRAME_BYTES, MAX_FRAME_BYTES_LIMIT);
        long pending = reader.longIn(MAX_PENDING_FRAME_BYTES, RemotingServerConfig.defaultPendingFrameBytes(frame),
                frame, 64 * 1024 * MIB);
        long receive = reader.longIn(FRAME_RECEIVE_TIMEOUT_MILLIS,
                RemotingServerConfig.DEFAULT_FRAME_RECEIVE_TIMEOUT.toMillis(), 0, 3_600_000);
        int connections = (int) reader.longIn(MAX_CONNECTIONS, RemotingServerConfig.DEFAULT_MAX_CONNECTIONS, 1,
                1_000_000);
        int idle = (int) reader.longIn(IDLE_SECONDS, 120, 0, 86_400);
        return new Limits(frame, pending, Duration.ofMillis(receive), connections, idle);
    }

    /** Parses the keys of this class from a plain map. */
    public static Limits parse(Map<String, String> values, String source) {
        Objects.requireNonNull(values, "values");
        return parse(key -> Optional.ofNullable(values.get(key)), source);
    }

    private record Reader(Function<String, Optional<String>> values, String source) {

        long longIn(String key, long defaultValue, long min, long max) {
            Optional<String> raw = values.apply(key).map(String::trim).filter(v -> !v.isEmpty());
            if (raw.isEmpty()) {
                return defaultValue;
            }
            long value;
            try {
                value = Long.parseLong(raw.get());
            } catch (NumberFormatException e) {
                throw bad(key, raw.get(), min, max);
            }
            if (value < min || value > max) {
                throw bad(key, raw.get(), min, max);
            }
            return value;
        }

        private ConfigException bad(String key, String value, long min, long max) {
            String lower = key.equals(MAX_PENDING_FRAME_BYTES) ? MAX_FRAME_BYTES + " (" + min + ")" : Long.toString(min);
            return new ConfigException(key + "=" + value + " in " + source + " is not valid: expected an integer in ["
                    + lower + ", " + max + "]");
        }
    }
}
