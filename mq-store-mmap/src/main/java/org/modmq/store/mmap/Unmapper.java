package org.modmq.store.mmap;

import java.lang.reflect.Field;
import java.nio.MappedByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Unsafe;

/**
 * Releases a mapping at once through {@code sun.misc.Unsafe.invokeCleaner} (module
 * {@code jdk.unsupported}). Probed once per JVM; when the probe fails the cause is logged once and
 * mappings are left to the garbage collector.
 *
 * <p>Thread-safe. The caller guarantees that nothing touches the mapping, or any slice of it, again.
 */
final class Unmapper {

    private static final Logger LOG = LoggerFactory.getLogger(Unmapper.class);
    private static final Unmapper INSTANCE = probe();

    private final Unsafe unsafe;
    private final Throwable unavailabilityCause;

    private Unmapper(Unsafe unsafe, Throwable unavailabilityCause) {
        this.unsafe = unsafe;
        this.unavailabilityCause = unavailabilityCause;
    }

    static Unmapper instance() {
        return INSTANCE;
    }

    private static Unmapper probe() {
        try {
            Field field = Unsafe.class.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return new Unmapper((Unsafe) field.get(null), null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("sun.misc.Unsafe.invokeCleaner is unavailable, mapped segments are unmapped by the garbage "
                    + "collector only", e);
            return new Unmapper(null, e);
        }
    }

    /** Whether {@link #unmap} releases mappings at once. */
    boolean isAvailable() {
        return unsafe != null;
    }

    /** Why {@link #isAvailable()} is false, or null. */
    Throwable unavailabilityCause() {
        return unavailabilityCause;
    }

    /**
     * Unmaps {@code mapping} now when possible.
     *
     * @return true when unmapped, false when left to the garbage collector
     */
    boolean unmap(MappedByteBuffer mapping) {
        if (unsafe == null) {
            return false;
        }
        unsafe.invokeCleaner(mapping);
        return true;
    }
}
