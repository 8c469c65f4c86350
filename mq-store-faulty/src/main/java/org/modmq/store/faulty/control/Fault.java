package org.modmq.store.faulty.control;

import java.io.IOException;
import org.modmq.api.spi.storage.StorageException;

/** An I/O error the faulty backend injects, with the message Linux gives it (strerror). */
public enum Fault {
    /** Input/output error: a failing device. */
    EIO("Input/output error"),
    /** No space left on device: a full file system. */
    ENOSPC("No space left on device");

    private final String message;

    Fault(String message) {
        this.message = message;
    }

    /** The strerror text, which is also the message of the injected {@link IOException}. */
    public String message() {
        return message;
    }

    /** What a backend would throw: a {@link StorageException} naming {@code what}, caused by the I/O error. */
    StorageException exception(String what) {
        IOException cause = new IOException(message + " (" + name() + ", injected)");
        return new StorageException("cannot " + what + ": " + cause.getMessage(), cause);
    }
}
