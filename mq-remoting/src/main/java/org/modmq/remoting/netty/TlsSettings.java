package org.modmq.remoting.netty;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import org.modmq.api.config.ConfigException;

/**
 * The TLS settings of one process, under RocketMQ's names ({@code TlsSystemConfig}), resolved once from
 * three sources:
 * <ol>
 *   <li>the process's own configuration file ({@code broker.conf}, {@code namesrv.conf},
 *       {@code controller.conf}): any {@code tls.*} key of {@link #KEYS}, plus {@code tlsMode} for
 *       {@code tls.server.mode} and {@code useTLS} (RocketMQ's client key) for {@code tls.enable};</li>
 *   <li>JVM system properties ({@code -Dtls.server.mode=enforcing}), which win over the file;</li>
 *   <li>the properties file named by {@code tls.config.file} (default {@value #DEFAULT_CONFIG_FILE}, read
 *       only if it exists), whose keys win over both, as in RocketMQ; it cannot set
 *       {@code tls.server.mode} or {@code tls.enable}.</li>
 * </ol>
 *
 * <p>Paths are PEM files: an X.509 certificate chain, and a PKCS#8 private key (encrypted when a key
 * password is given). A path or password that is unset is {@code null}. Immutable and thread-safe;
 * {@link #toString()} never shows a password.
 *
 * @param mode {@code tls.server.mode} (default {@code permissive})
 * @param clientEnabled {@code tls.enable}: this process dials other modmq or RocketMQ servers with TLS
 *     (default: true only when the mode is {@code enforcing}, as RocketMQ's client config does)
 * @param testMode {@code tls.test.mode.enable} (default true, as RocketMQ): a dialing side trusts any
 *     server certificate and presents none; the serving side is not affected (it always needs files)
 * @param serverCertPath {@code tls.server.certPath}
 * @param serverKeyPath {@code tls.server.keyPath}
 * @param serverKeyPassword {@code tls.server.keyPassword}
 * @param needClientAuth {@code tls.server.need.client.auth}: {@code none}, {@code optional} or
 *     {@code require} (default {@code none})
 * @param serverAuthClient {@code tls.server.authClient}: check client certificates against
 *     {@code tls.server.trustCertPath} (or the JDK's trust store); false accepts any (default false)
 * @param serverTrustCertPath {@code tls.server.trustCertPath}
 * @param clientCertPath {@code tls.client.certPath}
 * @param clientKeyPath {@code tls.client.keyPath}
 * @param clientKeyPassword {@code tls.client.keyPassword}
 * @param clientAuthServer {@code tls.client.authServer}: check the server's certificate against
 *     {@code tls.client.trustCertPath} (or the JDK's trust store); false trusts any (default false)
 * @param clientTrustCertPath {@code tls.client.trustCertPath}
 * @param configFileRead the {@code tls.config.file} that was read, or null when none was
 * @param reloadIntervalSeconds {@code tlsReloadIntervalSeconds} (modmq; RocketMQ always watches its files):
 *     how often a server port checks its certificate, key and trust files for changes and, when they
 *     changed, builds a new context for new connections ({@link TlsReloadAgent}); 0 never (default 10)
 */
public record TlsSettings(TlsMode mode, boolean clientEnabled, boolean testMode,
                          String serverCertPath, String serverKeyPath, String serverKeyPassword,
                          String needClientAuth, boolean serverAuthClient, String serverTrustCertPath,
                          String clientCertPath, String clientKeyPath, String clientKeyPassword,
                          boolean clientAuthServer, String clientTrustCertPath, String configFileRead,
                          long reloadIntervalSeconds) {

    public static final String SERVER_MODE = "tls.server.mode";
    public static final String ENABLE = "tls.enable";
    public static final String CONFIG_FILE = "tls.config.file";
    public static final String TEST_MODE_ENABLE = "tls.test.mode.enable";
    public static final String SERVER_NEED_CLIENT_AUTH = "tls.server.need.client.auth";
    public static final String SERVER_KEY_PATH = "tls.server.keyPath";
    public static final String SERVER_KEY_PASSWORD = "tls.server.keyPassword";
    public static final String SERVER_CERT_PATH = "tls.server.certPath";
    public static final String SERVER_AUTH_CLIENT = "tls.server.authClient";
    public static final String SERVER_TRUST_CERT_PATH = "tls.server.trustCertPath";
    public static final String CLIENT_KEY_PATH = "tls.client.keyPath";
    public static final String CLIENT_KEY_PASSWORD = "tls.client.keyPassword";
    public static final String CLIENT_CERT_PATH = "tls.client.certPath";
    public static final String CLIENT_AUTH_SERVER = "tls.client.authServer";
    public static final String CLIENT_TRUST_CERT_PATH = "tls.client.trustCertPath";
    /** modmq's key: seconds between checks of the server's certificate files, 0 for none. */
    public static final String RELOAD_INTERVAL_SECONDS = "tlsReloadIntervalSeconds";
    /** The default of {@value #RELOAD_INTERVAL_SECONDS}. */
    public static final long DEFAULT_RELOAD_INTERVAL_SECONDS = 10;
    /** Configuration-file spelling of {@value #SERVER_MODE}. */
    public static final String MODE_ALIAS = "tlsMode";
    /** RocketMQ's client-config key, a configuration-file spelling of {@value #ENABLE}. */
    public static final String ENABLE_ALIAS = "useTLS";
    /** RocketMQ's default for {@value #CONFIG_FILE}. */
    public static final String DEFAULT_CONFIG_FILE = "/etc/rocketmq/tls.properties";

    private static final List<String> PROPERTY_KEYS = List.of(SERVER_MODE, ENABLE, CONFIG_FILE, TEST_MODE_ENABLE,
            SERVER_NEED_CLIENT_AUTH, SERVER_KEY_PATH, SERVER_KEY_PASSWORD, SERVER_CERT_PATH, SERVER_AUTH_CLIENT,
            SERVER_TRUST_CERT_PATH, CLIENT_KEY_PATH, CLIENT_KEY_PASSWORD, CLIENT_CERT_PATH, CLIENT_AUTH_SERVER,
            CLIENT_TRUST_CERT_PATH, RELOAD_INTERVAL_SECONDS);
    private static final Set<String> NOT_IN_CONFIG_FILE = Set.of(SERVER_MODE, ENABLE, CONFIG_FILE);
    private static final Map<String, String> ALIASES = Map.of(MODE_ALIAS, SERVER_MODE, ENABLE_ALIAS, ENABLE);
    private static final Set<String> CLIENT_AUTH_VALUES = Set.of("none", "optional", "require");

    /** Every key a process's configuration file may hold for TLS: the {@code tls.*} names and the two aliases. */
    public static final Set<String> KEYS = keys();

    public TlsSettings {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(needClientAuth, "needClientAuth");
        if (reloadIntervalSeconds < 0) {
            throw new ConfigException(RELOAD_INTERVAL_SECONDS + "=" + reloadIntervalSeconds + " must be >= 0 (0: never)");
        }
    }

    private static Set<String> keys() {
        Set<String> keys = new java.util.TreeSet<>(PROPERTY_KEYS);
        keys.addAll(ALIASES.keySet());
        return Set.copyOf(keys);
    }

    /** Settings from system properties and {@code tls.config.file} alone (no configuration-file keys). */
    public static TlsSettings fromSystem() {
        return resolve(Map.of(), System.getProperties());
    }

    /**
     * Resolves the settings.
     *
     * @param fileValues the TLS keys of the process's configuration file (other keys are ignored)
     * @param system the system properties ({@link System#getProperties()}; tests pass their own)
     * @throws ConfigException on a bad value, on {@code tlsMode} and {@code tls.server.mode} (or
     *     {@code useTLS} and {@code tls.enable}) given different values, or when a {@code tls.config.file}
     *     that was named cannot be read
     */
    public static TlsSettings resolve(Map<String, String> fileValues, Properties system) {
        Objects.requireNonNull(fileValues, "fileValues");
        Objects.requireNonNull(system, "system");
        Map<String, String> merged = new LinkedHashMap<>();
        for (Map.Entry<String, String> entry : fileValues.entrySet()) {
            String key = ALIASES.getOrDefault(entry.getKey(), entry.getKey());
            if (!PROPERTY_KEYS.contains(key) || entry.getValue() == null || entry.getValue().isBlank()) {
                continue;
            }
            String value = entry.getValue().trim();
            String earlier = merged.put(key, value);
            if (earlier != null && !earlier.equals(value)) {
                throw new ConfigException(key + " is given twice with different values ('" + earlier + "' and '"
                        + value + "'; " + MODE_ALIAS + " and " + ENABLE_ALIAS + " are other names of "
                        + SERVER_MODE + " and " + ENABLE + ")");
            }
        }
        for (String key : PROPERTY_KEYS) {
            String value = system.getProperty(key);
            if (value != null && !value.isBlank()) {
                merged.put(key, value.trim());
            }
        }
        String configFileRead = readConfigFile(merged);
        TlsMode mode = TlsMode.parse(SERVER_MODE, merged.getOrDefault(SERVER_MODE, TlsMode.PERMISSIVE.configName()));
        String needClientAuth = merged.getOrDefault(SERVER_NEED_CLIENT_AUTH, "none").toLowerCase(Locale.ROOT);
        if (!CLIENT_AUTH_VALUES.contains(needClientAuth)) {
            throw new ConfigException(SERVER_NEED_CLIENT_AUTH + "=" + merged.get(SERVER_NEED_CLIENT_AUTH)
                    + " is not valid: expected one of [none, optional, require]");
        }
        return new TlsSettings(mode, bool(merged, ENABLE, mode == TlsMode.ENFORCING), bool(merged, TEST_MODE_ENABLE, true),
                merged.get(SERVER_CERT_PATH), merged.get(SERVER_KEY_PATH), merged.get(SERVER_KEY_PASSWORD),
                needClientAuth, bool(merged, SERVER_AUTH_CLIENT, false), merged.get(SERVER_TRUST_CERT_PATH),
                merged.get(CLIENT_CERT_PATH), merged.get(CLIENT_KEY_PATH), merged.get(CLIENT_KEY_PASSWORD),
                bool(merged, CLIENT_AUTH_SERVER, false), merged.get(CLIENT_TRUST_CERT_PATH), configFileRead,
                seconds(merged));
    }

    private static long seconds(Map<String, String> merged) {
        String value = merged.get(RELOAD_INTERVAL_SECONDS);
        if (value == null) {
            return DEFAULT_RELOAD_INTERVAL_SECONDS;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new ConfigException(RELOAD_INTERVAL_SECONDS + "=" + value + " is not a whole number of seconds");
        }
    }

    /** Lays the keys of {@code tls.config.file} over {@code merged}; returns the file read, or null. */
    private static String readConfigFile(Map<String, String> merged) {
        String named = merged.get(CONFIG_FILE);
        Path file = Path.of(named == null ? DEFAULT_CONFIG_FILE : named);
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            if (named != null) {
                throw new ConfigException(CONFIG_FILE + "=" + named + " is not a readable file");
            }
            return null;
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("cannot read " + CONFIG_FILE + " " + file + ": " + e.getMessage(), e);
        }
        for (String key : PROPERTY_KEYS) {
            String value = properties.getProperty(key);
            if (value != null && !value.isBlank() && !NOT_IN_CONFIG_FILE.contains(key)) {
                merged.put(key, value.trim());
            }
        }
        return file.toString();
    }

    private static boolean bool(Map<String, String> merged, String key, boolean defaultValue) {
        String value = merged.get(key);
        if (value == null) {
            return defaultValue;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new ConfigException(key + "=" + value + " is not valid: expected one of [true, false]");
    }

    /** @return whether a server certificate and key are configured */
    public boolean hasServerCertificate() {
        return serverCertPath != null || serverKeyPath != null;
    }

    /** @return a copy with another server mode (tests, embedding) */
    public TlsSettings withMode(TlsMode newMode) {
        return new TlsSettings(newMode, clientEnabled, testMode, serverCertPath, serverKeyPath, serverKeyPassword,
                needClientAuth, serverAuthClient, serverTrustCertPath, clientCertPath, clientKeyPath, clientKeyPassword,
                clientAuthServer, clientTrustCertPath, configFileRead, reloadIntervalSeconds);
    }

    /** One line for the start-up log: everything but the passwords. */
    @Override
    public String toString() {
        return SERVER_MODE + "=" + mode.configName() + ", " + ENABLE + "=" + clientEnabled + ", "
                + TEST_MODE_ENABLE + "=" + testMode + ", " + SERVER_CERT_PATH + "=" + serverCertPath + ", "
                + SERVER_KEY_PATH + "=" + serverKeyPath + ", " + SERVER_NEED_CLIENT_AUTH + "=" + needClientAuth + ", "
                + SERVER_AUTH_CLIENT + "=" + serverAuthClient + ", " + SERVER_TRUST_CERT_PATH + "=" + serverTrustCertPath
                + ", " + CLIENT_CERT_PATH + "=" + clientCertPath + ", " + CLIENT_KEY_PATH + "=" + clientKeyPath + ", "
                + CLIENT_AUTH_SERVER + "=" + clientAuthServer + ", " + CLIENT_TRUST_CERT_PATH + "=" + clientTrustCertPath
                + ", " + CONFIG_FILE + (configFileRead == null ? " not read" : "=" + configFileRead) + ", "
                + RELOAD_INTERVAL_SECONDS + "=" + reloadIntervalSeconds;
    }
}
