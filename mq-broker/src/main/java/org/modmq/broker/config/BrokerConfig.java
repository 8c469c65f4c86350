package org.modmq.broker.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.modmq.api.config.ConfigValues;
import org.modmq.metrics.MetricsConfig;
import org.modmq.remoting.netty.RemotingServerKeys;
import org.modmq.remoting.netty.TlsSettings;

/**
 * Everything {@code broker.conf} says, split by concern. Immutable and thread-safe; built only by
 * {@link BrokerConfigParser}.
 *
 * @param identity who the broker is and where it listens
 * @param nameServer registration with the name servers
 * @param store store keys handed through to the message store and its plugins
 * @param replication HA strategy settings
 * @param controller controller mode (broker id and role from the controllers)
 * @param topics topic and subscription-group defaults
 * @param consume consumer-facing behaviour
 * @param executors request executor sizes
 * @param transactions transactional messages (check-back timing)
 * @param timer timer messages (the time wheel)
 * @param acl ACL 1.0: whether requests are checked, and the broker's own credentials
 * @param remoting the bounds of the broker's remoting ports (frames, connections, idle time)
 * @param tls TLS of the remoting ports and of the broker's own connections (RocketMQ's {@code tls.*} keys,
 *     {@code tlsMode}, {@code useTLS}), resolved with the system properties and {@code tls.config.file}
 * @param metrics the Prometheus endpoint ({@code metricsExporterType}, {@code metricsPromExporterHost}/{@code Port})
 * @param raw the file's key/value pairs as read, for plugins that read keys of their own
 * @param effective every known key with the value in force (defaults included), for {@code GET_BROKER_CONFIG}
 * @param warnings the warnings produced while parsing (ignored keys), already logged
 * @param source the file (or other source) the values came from, for error messages
 */
public record BrokerConfig(BrokerIdentityConfig identity, NameServerConfig nameServer, StoreKeysConfig store,
                           ReplicationConfig replication, ControllerModeConfig controller,
                           TopicDefaultsConfig topics, ConsumeConfig consume,
                           ExecutorConfig executors, TransactionConfig transactions, TimerConfig timer,
                           AccessControlConfig acl, RemotingServerKeys.Limits remoting, TlsSettings tls,
                           MetricsConfig metrics, ConfigValues raw, Map<String, String> effective,
                           List<String> warnings, String source) {

    public BrokerConfig {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(nameServer, "nameServer");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(replication, "replication");
        Objects.requireNonNull(controller, "controller");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(consume, "consume");
        Objects.requireNonNull(executors, "executors");
        Objects.requireNonNull(transactions, "transactions");
        Objects.requireNonNull(timer, "timer");
        Objects.requireNonNull(acl, "acl");
        Objects.requireNonNull(remoting, "remoting");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(raw, "raw");
        effective = Map.copyOf(effective);
        warnings = List.copyOf(warnings);
        Objects.requireNonNull(source, "source");
    }

    /** The effective configuration as {@code key=value} lines, sorted by key (the GET_BROKER_CONFIG body). */
    public String toPropertiesText() {
        StringBuilder text = new StringBuilder();
        new java.util.TreeMap<>(effective).forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        return text.toString();
    }
}
