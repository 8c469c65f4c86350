package org.modmq.api.spi.replication;

import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.NamedProvider;

/** Entry point of a replication plugin, chosen by {@code haStrategy=<name>}. Stateless and thread-safe. */
public interface ReplicationStrategyProvider extends NamedProvider {

    /**
     * Creates a strategy, not yet started and without a role. It reads its declared keys from
     * {@code config} and the broker keys it shares ({@code haListenPort}, {@code enableControllerMode}, ...)
     * from {@link PluginConfig#values()}; the store starts it and then tells it its role.
     *
     * @throws org.modmq.api.config.ConfigException for a setting the declarations could not check, naming the key
     */
    ReplicationStrategy create(PluginConfig config, ReplicationContext context);
}
