package org.modmq.api.spi.flush;

import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.NamedProvider;

/** Entry point of a flush policy, chosen by {@code flushDiskType=<name>}. */
public interface FlushPolicyProvider extends NamedProvider {

    /**
     * Creates and starts a policy over {@code context.target()}.
     *
     * @throws org.modmq.api.config.ConfigException for a malformed setting, naming the key
     */
    FlushPolicy create(ConfigValues config, FlushContext context);
}
