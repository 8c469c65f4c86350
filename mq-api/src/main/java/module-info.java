/**
 * The contract between modmq's core and its plugins: the message model, plugin configuration values
 * and the three service-provider interfaces (storage backend, flush policy, replication strategy),
 * plus the one registry that finds providers by name.
 *
 * @uses org.modmq.api.spi.storage.StorageBackendProvider
 * @uses org.modmq.api.spi.flush.FlushPolicyProvider
 * @uses org.modmq.api.spi.replication.ReplicationStrategyProvider
 */
module org.modmq.api {
    requires transitive io.netty.buffer;
    requires transitive io.netty.common;
    requires org.slf4j;

    exports org.modmq.api.message;
    exports org.modmq.api.config;
    exports org.modmq.api.spi;
    exports org.modmq.api.spi.storage;
    exports org.modmq.api.spi.flush;
    exports org.modmq.api.spi.replication;

    uses org.modmq.api.spi.storage.StorageBackendProvider;
    uses org.modmq.api.spi.flush.FlushPolicyProvider;
    uses org.modmq.api.spi.replication.ReplicationStrategyProvider;
}
