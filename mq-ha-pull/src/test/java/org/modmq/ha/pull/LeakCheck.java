package org.modmq.ha.pull;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Turns Netty's logged {@code LEAK:} reports into test failures. Installed from the static initialiser,
 * so every test class that touches buffers must carry it (the first one loaded installs the factory
 * before any buffer class exists). After each test: collect garbage, let each detector poll, fail on any
 * report. Needs {@code -Dio.netty.leakDetection.level=paranoid}.
 */
public final class LeakCheck implements AfterEachCallback {

    private static final Queue<String> REPORTS = new ConcurrentLinkedQueue<>();
    private static final List<ResourceLeakDetector<?>> DETECTORS = new CopyOnWriteArrayList<>();

    static {
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
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
        });
    }

    @Override
    public void afterEach(ExtensionContext context) {
        for (int i = 0; i < 2; i++) {
            System.gc();
            DETECTORS.forEach(LeakCheck::poll);
        }
        List<String> found = new ArrayList<>(REPORTS);
        REPORTS.clear();
        if (!found.isEmpty()) {
            throw new AssertionError(found.size() + " Netty leak report(s):\n" + String.join("\n", found));
        }
    }

    /** Detectors report collected, unreleased buffers only when asked to track something new. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void poll(ResourceLeakDetector<?> detector) {
        Object probe = new Object();
        ResourceLeakTracker tracker = ((ResourceLeakDetector) detector).track(probe);
        if (tracker != null) {
            tracker.close(probe);
        }
    }
}
