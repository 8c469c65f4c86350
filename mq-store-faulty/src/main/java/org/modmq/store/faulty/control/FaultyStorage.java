package org.modmq.store.faulty.control;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.api.spi.storage.StorageBackend;

/**
 * Entry points of the faulty backend for tests: wrap a backend directly, or find the control of the
 * backend a broker created through {@code storeBackend=faulty} by its store root.
 *
 * <p>Thread-safe.
 */
public final class FaultyStorage {

    /** The provider name, {@code storeBackend=faulty}. */
    public static final String NAME = "faulty";

    /** Key naming the wrapped backend ({@code mmap} by default). */
    public static final String DELEGATE_KEY = "faultyDelegate";

    private static final Map<Path, FaultControl> CONTROLS = new ConcurrentHashMap<>();

    private FaultyStorage() {
    }

    /**
     * The control that backends created by the provider for {@code storeRoot} obey; created on first
     * use, so a test may switch faults on before the broker opens its store.
     */
    public static FaultControl control(Path storeRoot) {
        return CONTROLS.computeIfAbsent(key(storeRoot), root -> new FaultControl());
    }

    /** Forgets the control of {@code storeRoot} (tests call it when done). */
    public static void forget(Path storeRoot) {
        CONTROLS.remove(key(storeRoot));
    }

    /**
     * Wraps {@code inner}; the result owns it (closing the result closes it) and obeys {@code control}.
     */
    public static StorageBackend wrap(StorageBackend inner, FaultControl control) {
        return new FaultyStorageBackend(inner, control);
    }

    /** Bytes a power loss under {@code control} would take back now, over the open segments of {@code backend}. */
    public static long unforcedBytes(StorageBackend backend) {
        if (backend instanceof FaultyStorageBackend faulty) {
            return faulty.unforcedBytes();
        }
        throw new IllegalArgumentException("not a faulty backend: " + backend.name());
    }

    private static Path key(Path storeRoot) {
        return Objects.requireNonNull(storeRoot, "storeRoot").toAbsolutePath().normalize();
    }
}
