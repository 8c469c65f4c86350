package org.modmq.namesrv.processor;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.modmq.api.config.ConfigException;

/**
 * What one write request to the name server may carry. The defaults are far above what a real
 * broker sends (100 000 topics on one broker is real in big clusters; a registration of that size
 * is about 18 MB of JSON, which also needs {@code remotingMaxFrameBytes} raised). Immutable.
 *
 * <table>
 * <caption>Keys</caption>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code registrationMaxTopics}</td><td>500000</td><td>topics in one REGISTER_BROKER</td></tr>
 * <tr><td>{@code registrationMaxBodyBytes}</td><td>{@code remotingMaxFrameBytes}</td><td>bytes of one
 *     REGISTER_BROKER body, checked before it is parsed</td></tr>
 * <tr><td>{@code registrationMaxNameLength}</td><td>255</td><td>characters of a topic, cluster, broker or
 *     zone name and of an address in a registration (RocketMQ's longest topic: a retry topic, 255)</td></tr>
 * <tr><td>{@code registrationMaxBrokers}</td><td>10000</td><td>live brokers; a registration of a broker not
 *     yet live beyond them is refused (concurrent first registrations may pass it by a few)</td></tr>
 * <tr><td>{@code kvConfigMaxEntries}</td><td>100000</td><td>KV pairs over all namespaces (PUT_KV_CONFIG)</td></tr>
 * <tr><td>{@code kvConfigMaxValueLength}</td><td>65536</td><td>characters of one KV value; a namespace or
 *     key has at most {@code registrationMaxNameLength}</td></tr>
 * </table>
 *
 * @param maxTopics topics in one registration
 * @param maxBodyBytes bytes of one registration body
 * @param maxNameLength characters of one name or address
 * @param kvMaxEntries KV pairs in all
 * @param kvMaxValueLength characters of one KV value
 * @param maxBrokers live brokers
 */
public record RequestLimits(int maxTopics, int maxBodyBytes, int maxNameLength, int kvMaxEntries,
                            int kvMaxValueLength, int maxBrokers) {

    public static final String MAX_TOPICS = "registrationMaxTopics";
    public static final String MAX_BODY_BYTES = "registrationMaxBodyBytes";
    public static final String MAX_NAME_LENGTH = "registrationMaxNameLength";
    public static final String KV_MAX_ENTRIES = "kvConfigMaxEntries";
    public static final String KV_MAX_VALUE_LENGTH = "kvConfigMaxValueLength";
    public static final String MAX_BROKERS = "registrationMaxBrokers";
    /** Every key of this record. */
    public static final Set<String> KEYS = Set.of(MAX_TOPICS, MAX_BODY_BYTES, MAX_NAME_LENGTH, KV_MAX_ENTRIES,
            KV_MAX_VALUE_LENGTH, MAX_BROKERS);

    /** Validates every value. */
    public RequestLimits {
        check(MAX_TOPICS, maxTopics, 1, 100_000_000);
        check(MAX_BODY_BYTES, maxBodyBytes, 64 * 1024, Integer.MAX_VALUE);
        check(MAX_NAME_LENGTH, maxNameLength, 64, 65_535);
        check(KV_MAX_ENTRIES, kvMaxEntries, 1, 100_000_000);
        check(KV_MAX_VALUE_LENGTH, kvMaxValueLength, 1, 16 * 1024 * 1024);
        check(MAX_BROKERS, maxBrokers, 1, 10_000_000);
    }

    /**
     * Parses the keys of this record.
     *
     * @param values the value of a key, empty when unset
     * @param maxFrameBytes the frame bound of the port, the default of {@code registrationMaxBodyBytes}
     * @throws ConfigException naming the key of the first bad value
     */
    public static RequestLimits parse(Function<String, Optional<String>> values, int maxFrameBytes) {
        return new RequestLimits(intValue(values, MAX_TOPICS, 500_000), intValue(values, MAX_BODY_BYTES, maxFrameBytes),
                intValue(values, MAX_NAME_LENGTH, 255), intValue(values, KV_MAX_ENTRIES, 100_000),
                intValue(values, KV_MAX_VALUE_LENGTH, 65_536), intValue(values, MAX_BROKERS, 10_000));
    }

    /** The defaults for a port whose frames are at most {@code maxFrameBytes}. */
    public static RequestLimits defaults(int maxFrameBytes) {
        return parse(key -> Optional.empty(), maxFrameBytes);
    }

    /** The limits as {@code key=value} pairs, sorted by key. */
    public Map<String, String> asProperties() {
        Map<String, String> map = new TreeMap<>();
        map.put(MAX_TOPICS, Integer.toString(maxTopics));
        map.put(MAX_BODY_BYTES, Integer.toString(maxBodyBytes));
        map.put(MAX_NAME_LENGTH, Integer.toString(maxNameLength));
        map.put(KV_MAX_ENTRIES, Integer.toString(kvMaxEntries));
        map.put(KV_MAX_VALUE_LENGTH, Integer.toString(kvMaxValueLength));
        map.put(MAX_BROKERS, Integer.toString(maxBrokers));
        return map;
    }

    private static int intValue(Function<String, Optional<String>> values, String key, int defaultValue) {
        Optional<String> raw = values.apply(key).map(String::trim).filter(v -> !v.isEmpty());
        if (raw.isEmpty()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(raw.get());
        } catch (NumberFormatException e) {
            throw new ConfigException(key + "=" + raw.get() + " is not an integer");
        }
    }

    private static void check(String key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new ConfigException(key + "=" + value + " is not valid: expected an integer in [" + min + ", "
                    + max + "]");
        }
    }
}
