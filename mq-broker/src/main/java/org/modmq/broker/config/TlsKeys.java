package org.modmq.broker.config;

import java.util.Map;
import java.util.TreeMap;
import org.modmq.api.config.ConfigException;
import org.modmq.remoting.netty.TlsSettings;

/**
 * Reads the TLS keys of {@code broker.conf} ({@link TlsSettings#KEYS}) and resolves them with the system
 * properties and {@code tls.config.file}. The effective configuration shows {@code tlsMode} and
 * {@code useTLS} only: paths and passwords stay out of {@code GET_BROKER_CONFIG}. Stateless.
 */
final class TlsKeys {

    private TlsKeys() {
    }

    static TlsSettings read(ConfigReader reader) {
        Map<String, String> keys = new TreeMap<>();
        for (String key : TlsSettings.KEYS) {
            reader.raw(key).ifPresent(value -> keys.put(key, value));
        }
        TlsSettings tls;
        try {
            tls = TlsSettings.resolve(keys, System.getProperties());
        } catch (ConfigException e) {
            throw new ConfigException(e.getMessage() + " (TLS keys of " + reader.source()
                    + ", system properties and " + TlsSettings.CONFIG_FILE + ")", e);
        }
        reader.remember(TlsSettings.MODE_ALIAS, tls.mode().configName());
        reader.remember(TlsSettings.ENABLE_ALIAS, Boolean.toString(tls.clientEnabled()));
        return tls;
    }
}
