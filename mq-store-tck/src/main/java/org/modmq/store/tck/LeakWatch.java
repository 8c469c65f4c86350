package org.modmq.store.tck;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Turns Netty's leak reports into test failures. Netty only logs a {@code LEAK:} error when it finds a
 * reference-counted object that was collected without being released; {@link #install()} replaces the
 * leak detector factory with one whose detectors also record each report here, and {@link #check()}
 * collects garbage, lets every detector look for leaks and fails when any were reported.
 *
 * <p>Only detectors created after {@link #install()} are watched: a class such as
 * {@code AbstractByteBuf} creates its detector once, when it is initialised. The contract tests
 * install the watch in a static initialiser, before they allocate any buffer. Reports are meaningful
 * with {@code -Dio.netty.leakDetection.level=paranoid}, where every object is tracked.
 *
 * <p>Thread-safe; its state is global to the JVM, as Netty's leak detection is.
 */
public final class LeakWatch {

    private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();
    private static final List<ResourceLeakDetector<?>> DETECTORS = new CopyOnWriteArrayList<>();
    private static volatile boolean installed;

    private LeakWatch() {
    }

    /** Installs the recording factory once per JVM; later calls do nothing. */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
        installed = true;
    }

    /**
     * Collects garbage, makes each watched detector poll for collected unreleased objects, and fails
     * when any leak was reported since the previous check. Best effort: a leak whose object the
     * collector has not yet reclaimed shows up at a later check.
     *
     * @throws AssertionError listing the leak reports
     */
    public static void check() {
        for (int round = 0; round < 2; round++) {
            System.gc();
            DETECTORS.forEach(LeakWatch::poll);
        }
        List<String> found = new ArrayList<>();
        for (String leak = LEAKS.poll(); leak != null; leak = LEAKS.poll()) {
            found.add(leak);
        }
        if (!found.isEmpty()) {
            throw new AssertionError(found.size() + " Netty LEAK report(s): a reference-counted object was "
                    + "garbage-collected without release():\n" + String.join("\n\n", found));
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void poll(ResourceLeakDetector<?> detector) {
        // Detectors look for leaks only when asked to track something; track and close a probe.
        Object probe = new Object();
        ResourceLeakTracker tracker = ((ResourceLeakDetector) detector).track(probe);
        if (tracker != null) {
            tracker.close(probe);
        }
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {

        @Override
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
            ResourceLeakDetector<T> detector = new ResourceLeakDetector<>(resource, samplingInterval);
            detector.setLeakListener((type, records) -> LEAKS.add("LEAK of " + type + ":\n" + records));
            DETECTORS.add(detector);
            return detector;
        }

        /** Netty's deprecated abstract variant; {@code maxActive} is ignored, as Netty ignores it too. */
        @Override
        @Deprecated
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                   long maxActive) {
            return newResourceLeakDetector(resource, samplingInterval);
        }
    }
}
