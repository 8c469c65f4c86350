package org.modmq.api.spi;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The providers of one SPI, by name. Built once with {@link ServiceLoader}; immutable and
 * thread-safe afterwards.
 *
 * @param <P> the provider interface
 */
public final class ProviderRegistry<P extends NamedProvider> {

    private static final Logger LOG = LoggerFactory.getLogger(ProviderRegistry.class);

    private final Class<P> spi;
    private final Map<String, P> byName;

    private ProviderRegistry(Class<P> spi, Map<String, P> byName) {
        this.spi = spi;
        this.byName = Collections.unmodifiableMap(byName);
    }

    /**
     * Loads every provider of {@code spi} visible to this module (module path) or to the thread's
     * context class loader (class path).
     *
     * @throws IllegalStateException when two providers share a name
     */
    public static <P extends NamedProvider> ProviderRegistry<P> load(Class<P> spi) {
        Objects.requireNonNull(spi, "spi");
        return of(spi, ServiceLoader.load(spi).stream().map(ServiceLoader.Provider::get).toList());
    }

    /** Loads the providers of {@code spi} visible to {@code loader}. */
    public static <P extends NamedProvider> ProviderRegistry<P> load(Class<P> spi, ClassLoader loader) {
        Objects.requireNonNull(spi, "spi");
        Objects.requireNonNull(loader, "loader");
        return of(spi, ServiceLoader.load(spi, loader).stream().map(ServiceLoader.Provider::get).toList());
    }

    /**
     * A registry over the given providers (tests, embedding).
     *
     * @throws IllegalStateException when two providers share a name
     */
    public static <P extends NamedProvider> ProviderRegistry<P> of(Class<P> spi, List<? extends P> providers) {
        Objects.requireNonNull(spi, "spi");
        Map<String, P> byName = new TreeMap<>();
        for (P provider : providers) {
            P previous = byName.putIfAbsent(provider.name(), provider);
            if (previous != null) {
                throw new IllegalStateException("two " + spi.getSimpleName() + " providers are named '"
                        + provider.name() + "': " + describe(previous) + " and " + describe(provider));
            }
            LOG.info("{} provider '{}' from {}", spi.getSimpleName(), provider.name(), describe(provider));
        }
        return new ProviderRegistry<>(spi, byName);
    }

    /**
     * The provider called {@code name}.
     *
     * @throws UnknownProviderException listing the names present when there is none
     */
    public P get(String name) {
        Objects.requireNonNull(name, "name");
        P provider = byName.get(name);
        if (provider == null) {
            throw new UnknownProviderException(spi, name, names());
        }
        return provider;
    }

    /** The providers, sorted by name. */
    public Collection<P> providers() {
        return byName.values();
    }

    /** The names of all providers, sorted. */
    public Set<String> names() {
        return byName.keySet();
    }

    private static String describe(Object provider) {
        Class<?> type = provider.getClass();
        var source = type.getProtectionDomain().getCodeSource();
        String where = source == null || source.getLocation() == null ? "?" : source.getLocation().toString();
        return type.getName() + " in " + (type.getModule().isNamed() ? type.getModule().getName() : "class path")
                + " (" + where + ")";
    }
}
