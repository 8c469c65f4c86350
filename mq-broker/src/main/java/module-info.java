/**
 * The modmq broker runtime: request processors, consumer groups and offsets, topic configuration,
 * name-server registration and plugin loading. It reaches the storage, flush and replication plugins
 * only by name through {@code org.modmq.api.spi.ProviderRegistry}, never by depending on a plugin
 * module.
 */
module org.modmq.broker {
    requires transitive org.modmq.api;
    requires transitive org.modmq.remoting;
    requires org.modmq.acl;
    requires transitive org.modmq.metrics;
    requires org.modmq.store;
    requires org.slf4j;
    requires java.management;
    requires jdk.management;
    requires com.fasterxml.jackson.databind;

    exports org.modmq.broker;
    exports org.modmq.broker.config;

    opens org.modmq.broker.metadata to com.fasterxml.jackson.databind;
    opens org.modmq.broker.client to com.fasterxml.jackson.databind;
    opens org.modmq.broker.processor to com.fasterxml.jackson.databind;
    opens org.modmq.broker.data to com.fasterxml.jackson.databind;
    opens org.modmq.broker.registration to com.fasterxml.jackson.databind;
    opens org.modmq.broker.admin to com.fasterxml.jackson.databind;
    opens org.modmq.broker.controller to com.fasterxml.jackson.databind;
}
