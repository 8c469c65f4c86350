package org.modmq.api.message;

import java.util.Objects;

/** A store or plugin failure that maps to one {@link PutStatus} (and so to a response code). */
public final class PutStatusException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final PutStatus status;

    public PutStatusException(PutStatus status, String message) {
        super(message);
        this.status = Objects.requireNonNull(status, "status");
    }

    public PutStatusException(PutStatus status, String message, Throwable cause) {
        super(message, cause);
        this.status = Objects.requireNonNull(status, "status");
    }

    public PutStatus status() {
        return status;
    }
}
