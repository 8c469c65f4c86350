package org.modmq.api.spi.flush;

import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.NamedProvider;

/**
 * Entry point of a flush policy, chosen by {@code flushDiskType=<name>}. RocketMQ's values
 * {@code SYNC_FLUSH} and {@code ASYNC_FLUSH} name the two bundled policies; any other installed provider's
 * name works the same way. Stateless and thread-safe.
 */
public interface FlushPolicyProvider extends NamedProvider {

    /**
     * Creates a policy over {@code context.target()}; the store calls {@link FlushPolicy#start()} next, on
     * the same thread, before the first append.
     *
     * @param config this provider's declared keys, parsed and checked, and the broker's settings
     * @throws org.modmq.api.config.ConfigException for a setting the declarations could not check, naming the key
     */
    FlushPolicy create(PluginConfig config, FlushContext context);
}
