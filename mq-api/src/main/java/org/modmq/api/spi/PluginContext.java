package org.modmq.api.spi;

import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What every plugin may use from the runtime that creates it. The runtime owns all of these:
 * a plugin never shuts the scheduler down.
 *
 * @param clock wall clock; tests pass a manual one
 * @param scheduler for periodic and delayed work; shared, so tasks must be short
 * @param allocator for buffers the plugin hands out
 * @param storeRoot the broker's {@code storePathRootDir}
 * @param tls present when the connections a plugin opens or accepts itself must use TLS (the broker's
 *     {@code haTlsEnable}); empty for plain TCP
 * @param metrics where the plugin reports its figures (replica lag, flush times); {@link MetricsSink#NOOP}
 *     when the broker exports none
 */
public record PluginContext(Clock clock, ScheduledExecutorService scheduler, ByteBufAllocator allocator,
                            Path storeRoot, Optional<TransportTls> tls, MetricsSink metrics) {

    public PluginContext {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(allocator, "allocator");
        Objects.requireNonNull(storeRoot, "storeRoot");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(metrics, "metrics");
    }

    /** A context that reports no figures. */
    public PluginContext(Clock clock, ScheduledExecutorService scheduler, ByteBufAllocator allocator, Path storeRoot,
                         Optional<TransportTls> tls) {
        this(clock, scheduler, allocator, storeRoot, tls, MetricsSink.NOOP);
    }

    /** A context without TLS that reports no figures. */
    public PluginContext(Clock clock, ScheduledExecutorService scheduler, ByteBufAllocator allocator, Path storeRoot) {
        this(clock, scheduler, allocator, storeRoot, Optional.empty(), MetricsSink.NOOP);
    }
}
