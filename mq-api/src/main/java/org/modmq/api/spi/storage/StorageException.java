package org.modmq.api.spi.storage;

import java.io.IOException;
import java.io.UncheckedIOException;

/** An I/O failure of a storage backend; the message names the file. */
public final class StorageException extends UncheckedIOException {

    private static final long serialVersionUID = 1L;

    public StorageException(String message, IOException cause) {
        super(message, cause);
    }
}
