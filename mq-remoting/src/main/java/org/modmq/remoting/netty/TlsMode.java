package org.modmq.remoting.netty;

import java.util.Locale;
import org.modmq.api.config.ConfigException;

/**
 * What a remoting server does with TLS, under RocketMQ's names ({@code tls.server.mode}):
 * <ul>
 *   <li>{@link #DISABLED}: plain only; a connection that opens with a TLS handshake is closed.</li>
 *   <li>{@link #PERMISSIVE}: both; the first byte of a connection tells which it is.</li>
 *   <li>{@link #ENFORCING}: TLS only; a connection that opens with anything else is closed.</li>
 * </ul>
 */
public enum TlsMode {
    DISABLED("disabled"),
    PERMISSIVE("permissive"),
    ENFORCING("enforcing");

    private final String configName;

    TlsMode(String configName) {
        this.configName = configName;
    }

    /** @return the name used in configuration ({@code disabled}, {@code permissive}, {@code enforcing}) */
    public String configName() {
        return configName;
    }

    /**
     * Parses a configured value, ignoring case. RocketMQ silently falls back to permissive on an unknown
     * value; modmq refuses it, since a typo would otherwise leave plain TCP open.
     *
     * @param key the key the value came from, for the error
     * @throws ConfigException when {@code value} is none of the three names
     */
    public static TlsMode parse(String key, String value) {
        String name = value.trim().toLowerCase(Locale.ROOT);
        for (TlsMode mode : values()) {
            if (mode.configName.equals(name)) {
                return mode;
            }
        }
        throw new ConfigException(key + "=" + value + " is not valid: expected one of [disabled, permissive, enforcing]");
    }
}
