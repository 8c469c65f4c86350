package org.modmq.store.mmap;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases a mapping at once through {@code sun.misc.Unsafe.invokeCleaner} (module
 * {@code jdk.unsupported}), looked up reflectively so the build stays free of internal-API
 * warnings. Probed once per JVM; when the probe fails the cause is logged once and mappings are
 * left to the garbage collector.
 *
 * <p>Thread-safe. The caller guarantees that nothing touches the mapping, or any slice of it, again.
 */
final class Unmapper {

    private static final Logger LOG = LoggerFactory.getLogger(Unmapper.class);
    private static final Unmapper INSTANCE = probe();

    private final MethodHandle invokeCleaner;
    private final Throwable unavailabilityCause;

    private Unmapper(MethodHandle invokeCleaner, Throwable unavailabilityCause) {
        this.invokeCleaner = invokeCleaner;
        this.unavailabilityCause = unavailabilityCause;
    }

    static Unmapper instance() {
        return INSTANCE;
    }

    private static Unmapper probe() {
        try {
            Class<?> unsafeType = Class.forName("sun.misc.Unsafe");
            Field field = unsafeType.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            MethodHandle handle = MethodHandles.lookup()
                    .findVirtual(unsafeType, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                    .bindTo(field.get(null));
            return new Unmapper(handle, null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("sun.misc.Unsafe.invokeCleaner is unavailable, mapped segments are unmapped by the garbage "
                    + "collector only", e);
            return new Unmapper(null, e);
        }
    }

    /** Whether {@link #unmap} releases mappings at once. */
    boolean isAvailable() {
        return invokeCleaner != null;
    }

    /** Why {@link #isAvailable()} is false, or null. */
    Throwable unavailabilityCause() {
        return unavailabilityCause;
    }

    /**
     * Unmaps {@code mapping} now when possible.
     *
     * @return true when unmapped, false when left to the garbage collector
     * @throws IllegalArgumentException when {@code mapping} is a slice or duplicate, not a mapping
     */
    boolean unmap(MappedByteBuffer mapping) {
        if (invokeCleaner == null) {
            return false;
        }
        try {
            invokeCleaner.invokeExact((ByteBuffer) mapping);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            // invokeCleaner declares no checked exception; keep the cause should one ever appear.
            throw new IllegalStateException("invokeCleaner failed on a mapping", e);
        }
        return true;
    }
}
