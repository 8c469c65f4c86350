/**
 * Test support shared by the modules' tests. {@link org.modmq.testkit.NettyLeakCheck} turns the
 * {@code LEAK:} reports that Netty only logs into test failures, as a JUnit 5 extension or through
 * static calls for fixtures that are not extensions (the storage TCK).
 * {@link org.modmq.testkit.ManualClock} is the clock tests inject where code takes a
 * {@link java.time.Clock}: it moves only when the test moves it.
 *
 * <p>Modules use it as a {@code test}-scope dependency; the storage TCK, which is test code in
 * {@code src/main}, requires it at compile scope. Where the kit sits on the class path (in every
 * consumer's test run) a JUnit launcher session listener installs the check before any test class
 * loads. It is declared both in {@code META-INF/services} (class path) and with {@code provides}
 * (module path); the launcher module is only {@code requires static}, since whatever runs the tests
 * brings it.
 */
module org.modmq.testkit {
    requires transitive org.junit.jupiter.api;
    requires io.netty.common;
    requires static org.junit.platform.launcher;

    exports org.modmq.testkit;

    provides org.junit.platform.launcher.LauncherSessionListener
            with org.modmq.testkit.launcher.LeakCheckSessionListener;
}
