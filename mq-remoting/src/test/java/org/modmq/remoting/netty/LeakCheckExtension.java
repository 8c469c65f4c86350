package org.modmq.remoting.netty;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty reports a leak. Netty only logs {@code LEAK:}; this extension
 * installs (before any buffer class is initialised, from its static initialiser) a leak detector
 * factory whose detectors record every report, and after each test collects garbage, makes each
 * detector poll, and fails on any report. Meaningful with {@code -Dio.netty.leakDetection.level=paranoid}.
 */
public final class LeakCheckExtension implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();
    private static final List<ResourceLeakDetector<?>> DETECTORS = new CopyOnWriteArrayList<>();

    static {
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        // the static initialiser has run by now: that is the point of this callback
    }

    @Override
    public void afterEach(ExtensionContext context) {
        check();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        check();
    }

    /** @return the number of detectors created since installation (a sanity check for tests) */
    static int detectorCount() {
        return DETECTORS.size();
    }

    /** Collects garbage, polls every detector and throws when a leak was reported. */
    static void check() {
        for (int round = 0; round < 2; round++) {
            System.gc();
            DETECTORS.forEach(LeakCheckExtension::poll);
        }
        List<String> found = new ArrayList<>();
        for (String leak = LEAKS.poll(); leak != null; leak = LEAKS.poll()) {
            found.add(leak);
        }
        if (!found.isEmpty()) {
            throw new AssertionError(found.size() + " Netty LEAK report(s):\n" + String.join("\n\n", found));
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void poll(ResourceLeakDetector<?> detector) {
        // a detector reports collected, unreleased objects only while tracking a new one
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

        @Override
        @Deprecated
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                long maxActive) {
            return newResourceLeakDetector(resource, samplingInterval);
        }
    }
}
