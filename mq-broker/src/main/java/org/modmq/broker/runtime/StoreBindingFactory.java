package org.modmq.broker.runtime;


/**
 * Opens the message store for a broker. The broker calls it once during start; the real factory
 * (added with mq-store's public API) chooses the StorageBackend, FlushPolicy and ReplicationStrategy
 * by name through {@code org.modmq.api.spi.ProviderRegistry} from {@code storeBackend},
 * {@code flushDiskType} and {@code haStrategy}.
 */
@FunctionalInterface
public interface StoreBindingFactory {

    /**
     * @param runtime what the store may use from the broker (config, clock, scheduler, metadata tables)
     * @return the open binding, owned by the broker from now on
     */
    StoreBinding open(BrokerRuntime runtime);
}
