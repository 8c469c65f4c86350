package org.modmq.api.spi.replication;

import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.NamedProvider;

/** Entry point of a replication plugin, chosen by {@code haStrategy=<name>}. */
public interface ReplicationStrategyProvider extends NamedProvider {

    /**
     * Creates a strategy for the role in {@code context}. It reads its own keys from {@code config}
     * ({@code haListenPort}, {@code haMasterAddress}, {@code haSlaveFallbehindMax}, ...).
     */
    ReplicationStrategy create(ConfigValues config, ReplicationContext context);
}
