package org.modmq.testkit.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The built modmq distribution ({@code mq-distribution/target/modmq-VERSION/}), named by the system
 * property {@value #DIR_PROPERTY} that the test modules' surefire configuration sets, and the
 * environment its launch scripts ({@code bin/mqnamesrv}, {@code bin/mqbroker}, {@code bin/modmq}) read.
 * Immutable and thread-safe.
 */
public final class BuiltDistribution {

    /** The system property naming the distribution directory. */
    public static final String DIR_PROPERTY = "modmq.dist.dir";

    /** The launch scripts every built distribution has. */
    public static final List<String> SCRIPTS = List.of("mqnamesrv", "mqbroker", "modmq");

    private final Path home;

    private BuiltDistribution(Path home) {
        this.home = home;
    }

    /**
     * The distribution named by {@value #DIR_PROPERTY}.
     *
     * @throws IllegalStateException if the property is not set, or the directory lacks an executable
     *                               launch script or {@code lib/} (not built yet)
     */
    public static BuiltDistribution located() {
        String dir = System.getProperty(DIR_PROPERTY);
        if (dir == null || dir.isBlank()) {
            throw new IllegalStateException("system property " + DIR_PROPERTY + " is not set; run the tests through Maven");
        }
        return at(Path.of(dir));
    }

    /**
     * The distribution in {@code dir}.
     *
     * @throws IllegalStateException if {@code dir} lacks an executable launch script or {@code lib/}
     */
    public static BuiltDistribution at(Path dir) {
        Path home = Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize();
        boolean built = Files.isDirectory(home.resolve("lib"))
                && SCRIPTS.stream().allMatch(script -> Files.isExecutable(home.resolve("bin").resolve(script)));
        if (!built) {
            throw new IllegalStateException(home + " is not a built distribution (bin/" + String.join(", bin/", SCRIPTS)
                    + " and lib/ expected); build mq-distribution first");
        }
        return new BuiltDistribution(home);
    }

    /** The distribution directory, absolute. */
    public Path home() {
        return home;
    }

    /** {@code bin/<script>}, as a string ready for a command line. */
    public String script(String script) {
        return home.resolve("bin").resolve(Objects.requireNonNull(script, "script")).toString();
    }

    /** {@code lib/}: the core modules and their dependencies. */
    public Path lib() {
        return home.resolve("lib");
    }

    /** {@code plugins/}: the plugin modules. */
    public Path plugins() {
        return home.resolve("plugins");
    }

    /**
     * What a launch script needs to run a test's process: this JVM's {@code JAVA_HOME}, the heap and GC
     * options {@code heapOpts} in place of the script's defaults ({@code JAVA_HEAP_OPTS}) and its log files
     * under {@code logDir} ({@code MODMQ_LOG_DIR}). For {@link ProcessSpec#environment()}.
     */
    public static Map<String, String> launcherEnvironment(String heapOpts, Path logDir) {
        Objects.requireNonNull(heapOpts, "heapOpts");
        Objects.requireNonNull(logDir, "logDir");
        return Map.of("JAVA_HOME", System.getProperty("java.home"), "JAVA_HEAP_OPTS", heapOpts,
                "MODMQ_LOG_DIR", logDir.toString());
    }

    @Override
    public String toString() {
        return "distribution " + home;
    }
}
