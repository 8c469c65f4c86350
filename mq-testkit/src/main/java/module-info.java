/**
 * Test support shared by the modules' tests. {@link org.modmq.testkit.NettyLeakCheck} turns the
 * {@code LEAK:} reports that Netty only logs into test failures, as a JUnit 5 extension or through
 * static calls for fixtures that are not extensions (the storage TCK).
 *
 * <p>Modules use it as a {@code test}-scope dependency; the storage TCK, which is test code in
 * {@code src/main}, requires it at compile scope. Where the kit sits on the class path (in every
 * consumer's test run) a JUnit launcher session listener installs the check before any test class
 * loads; it is registered in {@code META-INF/services} only, because the launcher, which whatever
 * runs the tests provides, need not be a module when the kit is one.
 */
module org.modmq.testkit {
    requires transitive org.junit.jupiter.api;
    requires io.netty.common;
    requires static org.junit.platform.launcher;

    exports org.modmq.testkit;
}
