package org.modmq.api.spi.replication;

import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.NamedProvider;

/** Entry point of a replication plugin, chosen by {@code haStrategy=<name>}. */
public interface ReplicationStrategyProvider extends NamedProvider {

    /**
     * Creates a strategy, not yet started and without a role. It reads its own keys from {@code config}
     * ({@code haListenPort}, {@code enableControllerMode}, ...); the store starts it and then tells it its
     * role.
     *
     * @throws org.modmq.api.config.ConfigException for a malformed setting, naming the key
     */
    ReplicationStrategy create(ConfigValues config, ReplicationContext context);
}
