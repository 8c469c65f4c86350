package org.modmq.api.spi;

import java.util.List;
import org.modmq.api.config.ConfigKey;

/**
 * A service provider with a stable name that configuration uses to choose it
 * (for example {@code storeBackend=mmap}). Implementations are {@code public final} classes with a
 * public no-argument constructor, so that they load from the module path and the class path alike.
 * Providers are stateless and thread-safe: the runtime may ask them for their name and keys from any
 * thread, and more than once.
 */
public interface NamedProvider {

    /** The name configuration refers to; unique among the providers of one SPI. Never null. */
    String name();

    /**
     * The {@code broker.conf} keys this provider reads, with type, default and description. The broker
     * accepts these keys, checks the values of the chosen provider before calling its {@code create}
     * (a bad value stops start-up naming key and value), reports them in {@code GET_BROKER_CONFIG} and
     * lists them in the configuration reference. The chosen provider receives them parsed in a
     * {@link org.modmq.api.config.PluginConfig}.
     *
     * <p>Names are unique within one provider and must not be keys the broker itself reads (start-up
     * fails naming both); several providers may declare the same key, each with its own default, since
     * only the chosen one's declaration applies. The broker's own keys a plugin also uses
     * ({@code listenPort}, {@code brokerIP1}, ...) are read through
     * {@link org.modmq.api.config.PluginConfig#values()} and not declared.
     *
     * @return the declarations, in the order the reference lists them; empty by default
     */
    default List<ConfigKey> configKeys() {
        return List.of();
    }
}
