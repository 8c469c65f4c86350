package org.modmq.api.spi.flush;

import java.util.Objects;
import org.modmq.api.spi.PluginContext;

/**
 * What a flush policy works with.
 *
 * @param plugin clock, scheduler, allocator, store root
 * @param target the log to force
 */
public record FlushContext(PluginContext plugin, FlushTarget target) {

    public FlushContext {
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(target, "target");
    }
}
