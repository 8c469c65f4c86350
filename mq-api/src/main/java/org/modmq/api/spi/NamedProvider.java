package org.modmq.api.spi;

/**
 * A service provider with a stable name that configuration uses to choose it
 * (for example {@code storeBackend=mmap}). Implementations are {@code public final} classes with a
 * public no-argument constructor, so that they load from the module path and the class path alike.
 */
public interface NamedProvider {

    /** The name configuration refers to; unique among the providers of one SPI. Never null. */
    String name();
}
