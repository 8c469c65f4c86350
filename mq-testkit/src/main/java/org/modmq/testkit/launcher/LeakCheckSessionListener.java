package org.modmq.testkit.launcher;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Installs {@link NettyLeakCheck}'s recording factory when a JUnit launcher session opens, before any
 * test class is loaded, so that the check also sees the buffer classes when a test class without the
 * extension happens to run first in the JVM. JUnit finds it through
 * {@code META-INF/services/org.junit.platform.launcher.LauncherSessionListener}, which works where the
 * kit sits on the class path: in every module that uses it as a test dependency. Not a
 * public API: it lives in an unexported package. Called by the launcher on its own thread.
 */
public final class LeakCheckSessionListener implements LauncherSessionListener {

    /** For {@link java.util.ServiceLoader}. */
    public LeakCheckSessionListener() {
    }

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        NettyLeakCheck.install();
    }
}
