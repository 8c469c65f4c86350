package org.modmq.api.spi;

import java.util.Set;

/** Thrown when configuration names a provider that no module on the path offers. */
public final class UnknownProviderException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final Set<String> present;

    /**
     * @param spi the SPI type whose provider was asked for
     * @param name the name that was asked for
     * @param present the names that are present
     */
    public UnknownProviderException(Class<?> spi, String name, Set<String> present) {
        super("no " + spi.getSimpleName() + " named '" + name + "'; present: " + present);
        this.present = Set.copyOf(present);
    }

    /** The names of the providers that are present. */
    public Set<String> present() {
        return present;
    }
}
