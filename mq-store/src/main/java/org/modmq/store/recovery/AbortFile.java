package org.modmq.store.recovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.modmq.api.spi.storage.StorageException;

/** {@code <root>/abort}: present while the store runs; present at open means the last run crashed. */
public final class AbortFile {

    private final Path file;

    public AbortFile(Path file) {
        this.file = Objects.requireNonNull(file, "file");
    }

    public boolean exists() {
        return Files.exists(file);
    }

    public void create() {
        try {
            if (!Files.exists(file)) {
                Files.createFile(file);
            }
        } catch (IOException e) {
            throw new StorageException("cannot create " + file, e);
        }
    }

    public void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new StorageException("cannot delete " + file, e);
        }
    }
}
