package org.modmq.ha.push;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Fails a test on a Netty {@code LEAK:} report (Netty itself only logs them). {@link #install()} must
 * run before the first buffer class initialises its detector, so {@link HaFixture} calls it from its
 * static initialiser. JVM-global; thread-safe.
 */
final class LeakCheck {

    private static final Queue<String> REPORTS = new ConcurrentLinkedQueue<>();
    private static final List<ResourceLeakDetector<?>> DETECTORS = new CopyOnWriteArrayList<>();
    private static boolean installed;

    private LeakCheck() {
    }

    static synchronized void install() {
        if (!installed) {
            ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new Factory());
            installed = true;
        }
    }

    /** Collects garbage, asks each detector to look, and throws when anything leaked since the last call. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void verify() {
        for (int round = 0; round < 2; round++) {
            System.gc();
            for (ResourceLeakDetector detector : DETECTORS) {
                Object probe = new Object();
                ResourceLeakTracker tracker = detector.track(probe);
                if (tracker != null) {
                    tracker.close(probe);
                }
            }
        }
        List<String> leaks = new ArrayList<>();
        for (String report = REPORTS.poll(); report != null; report = REPORTS.poll()) {
            leaks.add(report);
        }
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty leak report(s):\n" + String.join("\n\n", leaks));
        }
    }

    private static final class Factory extends ResourceLeakDetectorFactory {

        @Override
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
            ResourceLeakDetector<T> detector = new ResourceLeakDetector<>(resource, samplingInterval);
            detector.setLeakListener((type, records) -> REPORTS.add("LEAK of " + type + ": " + records));
            DETECTORS.add(detector);
            return detector;
        }

        @Override
        @Deprecated
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                   long maxActive) {
            return newResourceLeakDetector(resource, samplingInterval);
        }
    }
}
