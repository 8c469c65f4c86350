package org.modmq.store;

/** A role change named an epoch older than one this store already knows; nothing changed. */
public final class StaleEpochException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public StaleEpochException(String message) {
        super(message);
    }
}
