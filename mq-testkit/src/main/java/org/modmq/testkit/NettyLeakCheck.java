package org.modmq.testkit;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails tests when Netty reports a leak: a reference-counted object (a {@code ByteBuf}, most often)
 * that was garbage-collected without being released. Netty itself only logs a {@code LEAK:} error.
 *
 * <p><b>Use.</b> Put {@code @ExtendWith(NettyLeakCheck.class)} on every test class that allocates
 * buffers. After each test, and once more after all tests of the class, the extension calls
 * {@link #check()}, which fails with the leak reports. Code that is not an extension, such as a
 * fixture base class, calls {@link #install()} from its static initialiser and {@link #check()}
 * after each test. Reports are complete only with {@code -Dio.netty.leakDetection.level=paranoid}:
 * at lower levels Netty tracks a sample of the objects, and when leak detection is disabled it
 * tracks none, so {@link #check()} always passes.
 *
 * <p><b>Why install must come before the buffer classes initialise.</b> Netty creates each leak
 * detector once, in the static initialiser of the class that tracks objects
 * ({@code io.netty.buffer.AbstractByteBuf} for every {@code ByteBuf}, {@code HashedWheelTimer} for
 * timers), through whichever {@link ResourceLeakDetectorFactory} is installed at that moment. A
 * detector created before {@link #install()} is Netty's default one: it logs its reports and
 * nobody else hears them. This class therefore installs its recording factory from its own static
 * initialiser, which runs when JUnit registers the extension, before the test class itself is
 * initialised; where the kit sits on the class path, as it does in the test runs of the modules that
 * depend on it, a JUnit launcher session listener installs it earlier still, before any test class
 * is loaded. {@link #install()} also checks that it came in time: it initialises
 * {@code AbstractByteBuf} itself, and when no buffer detector was created through the recording
 * factory, every {@link #check()} fails and says why, rather than passing without looking. Test
 * classes of one module share one JVM and run in no guaranteed order, so a class that allocates
 * buffers without the extension can initialise the buffer classes first: give every such class
 * the extension.
 *
 * <p><b>Global state and threading.</b> The installed factory, the detectors it created and the
 * pending reports are static, one set per JVM, just as Netty's leak detection is. All methods are
 * thread-safe. {@link #check()} takes every report in the JVM, whichever thread's object leaked,
 * so leak-checked tests that run in parallel in one JVM would fail one another: run them
 * sequentially, as JUnit does by default.
 */
public final class NettyLeakCheck implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    private static final String BUFFER_CLASS = "io.netty.buffer.AbstractByteBuf";
    private static final String BUFFER_RESOURCE = "io.netty.buffer.ByteBuf";
    private static final int GC_ROUNDS = 2;
    private static final long GC_WAIT_MILLIS = 2_000;

    private static final Queue<String> REPORTS = new ConcurrentLinkedQueue<>();
    private static final List<RecordingDetector<?>> DETECTORS = new CopyOnWriteArrayList<>();
    private static final Set<String> WATCHED_RESOURCES = ConcurrentHashMap.newKeySet();
    private static boolean installed;
    private static volatile String blindSpot;

    static {
        install();
    }

    /** Created by JUnit for {@code @ExtendWith}; the instance holds no state of its own. */
    public NettyLeakCheck() {
    }

    /** Installs the recording factory if nothing has yet (it has: the static initialiser did). */
    @Override
    public void beforeAll(ExtensionContext context) {
        install();
    }

    /** Runs {@link #check()} after each test, after the test's own {@code @AfterEach} methods. */
    @Override
    public void afterEach(ExtensionContext context) {
        check();
    }

    /** Runs {@link #check()} once more after the class's {@code @AfterAll} methods. */
    @Override
    public void afterAll(ExtensionContext context) {
        check();
    }

    /**
     * Installs the recording leak detector factory, once per JVM; later calls do nothing. Call it
     * before anything in the JVM allocates a buffer (see the class comment for why); the first use
     * of this class calls it anyway. Thread-safe and idempotent.
     */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
        installed = true;
        blindSpot = probeBufferDetector();
    }

    /**
     * Collects garbage, makes every recording detector look for tracked objects that were collected
     * unreleased, and fails when any leak was reported since the previous call. Reports are consumed:
     * each fails one check. Best effort: the collection is waited for (at most a few seconds, and
     * not at all once the calling thread is interrupted, whose flag stays set), but an object that is
     * still reachable, say from a thread that has not stopped yet, is reported by a later check.
     * Thread-safe; it blocks the caller for the collections.
     *
     * @throws AssertionError listing the leak reports, or saying that the buffer leak detector was
     *         created before {@link #install()} and is not watched
     */
    public static void check() {
        for (int round = 0; round < GC_ROUNDS; round++) {
            collectGarbage();
            DETECTORS.forEach(RecordingDetector::poll);
        }
        List<String> found = new ArrayList<>();
        for (String report = REPORTS.poll(); report != null; report = REPORTS.poll()) {
            found.add(report);
        }
        String blind = blindSpot;
        if (!found.isEmpty()) {
            throw new AssertionError(found.size() + " Netty LEAK report(s): a reference-counted object was "
                    + "garbage-collected without release():\n" + String.join("\n\n", found)
                    + (blind == null ? "" : "\n\nAlso: " + blind));
        }
        if (blind != null) {
            throw new AssertionError(blind);
        }
    }

    /** Whether a recording detector exists for objects of the named class (for the kit's own tests). */
    static boolean watches(String resourceClassName) {
        return WATCHED_RESOURCES.contains(resourceClassName);
    }

    /** Returns why buffer leaks would go unseen, or null when the buffer detector records. */
    private static String probeBufferDetector() {
        ClassLoader loader = ResourceLeakDetector.class.getClassLoader();
        try {
            Class.forName(BUFFER_CLASS, true, loader == null ? ClassLoader.getSystemClassLoader() : loader);
        } catch (ClassNotFoundException e) {
            // netty-buffer is absent, so there are no buffers to watch; other detectors still record.
            return null;
        }
        if (WATCHED_RESOURCES.contains(BUFFER_RESOURCE)) {
            return null;
        }
        return "NettyLeakCheck was installed after " + BUFFER_CLASS + " had been initialised, so ByteBuf "
                + "leaks are only logged and this check cannot see them. Something in this JVM allocated a "
                + "buffer first, usually a test class without @ExtendWith(NettyLeakCheck.class) that ran "
                + "earlier: give every test class that touches buffers the extension, or call "
                + "NettyLeakCheck.install() from a static initialiser that runs first.";
    }

    /** One explicit collection, then a bounded wait for its cleared references to reach their queues. */
    private static void collectGarbage() {
        ReferenceQueue<Object> processed = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), processed);
        System.gc();
        try {
            // The JVM hands each collection's cleared references to the reference handler as one list,
            // which it enqueues whole before taking the next: the sentinel arriving means this list is
            // under way, and the next round's sentinel means it is done.
            processed.remove(GC_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            Reference.reachabilityFence(sentinel);
        }
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {

        @Override
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
            RecordingDetector<T> detector = new RecordingDetector<>(resource, samplingInterval);
            DETECTORS.add(detector);
            WATCHED_RESOURCES.add(resource.getName());
            return detector;
        }

        /** Netty's deprecated abstract variant; {@code maxActive} is ignored, as Netty ignores it. */
        @Override
        @Deprecated
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                   long maxActive) {
            return newResourceLeakDetector(resource, samplingInterval);
        }
    }

    /** A Netty detector that also queues each report for {@link #check()}. */
    private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {

        RecordingDetector(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        /** Reports even when Netty's logger has ERROR off: the check, not the log, is the point. */
        @Override
        protected boolean needReport() {
            return true;
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            super.reportTracedLeak(resourceType, records);
            REPORTS.add("LEAK of " + resourceType + ":" + records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            super.reportUntracedLeak(resourceType);
            REPORTS.add("LEAK of " + resourceType + " (no access records: run with "
                    + "-Dio.netty.leakDetection.level=paranoid to see where it was created)");
        }

        /**
         * Makes the detector drain its queue of collected objects, which Netty does only when it
         * starts tracking something: track a probe, forcibly so sampling cannot skip it, and close it.
         */
        void poll() {
            @SuppressWarnings("unchecked")
            T probe = (T) new Object();
            ResourceLeakTracker<T> tracker = trackForcibly(probe);
            if (tracker != null) {
                tracker.close(probe);
            }
        }
    }
}
