package org.modmq.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One process a test started (a modmq or stock name server or broker, a launcher script) that listens on
 * 127.0.0.1:{@link #port()}. Its stdout and stderr go to {@link #outputFile()}, which failure messages
 * quote. Every signal goes through its own {@link Process} handle, never by name. {@link #close()} stops it
 * with SIGTERM and, after {@link #STOP_TIMEOUT}, SIGKILL; it is idempotent.
 *
 * <p>Threads: meant for the test thread that started it; the state it reads ({@link Process}) is
 * thread-safe, so a failure message may be built from another thread too.
 */
public final class ChildProcess implements AutoCloseable {

    /** How long a stopping process may run its shutdown hooks before {@link #close()} kills it. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    /**
     * Variables a developer's shell may hold that would change what a launcher does (extra JVM options, a
     * name server to look up, a RocketMQ home, a pid file); removed from every child's environment before
     * {@link ProcessSpec#environment()} is added.
     */
    public static final Set<String> CLEARED_ENVIRONMENT =
            Set.of("JAVA_OPTS", "NAMESRV_ADDR", "ROCKETMQ_HOME", "MODMQ_PID_FILE");

    private final ProcessSpec spec;
    private final Process process;

    private ChildProcess(ProcessSpec spec, Process process) {
        this.spec = spec;
        this.process = process;
    }

    /**
     * Starts {@code spec} and waits until 127.0.0.1:{@code spec.port()} accepts connections. On failure
     * the process is stopped before this throws.
     *
     * @param timeout how long the port may take to open
     * @throws AssertionError       quoting the process's output if it exits first or the port stays closed
     * @throws UncheckedIOException if the command cannot be started at all
     */
    public static ChildProcess start(ProcessSpec spec, Duration timeout) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(timeout, "timeout");
        ProcessBuilder builder = new ProcessBuilder(spec.command())
                .directory(spec.workDir().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(spec.outputFile().toFile()));
        Map<String, String> env = builder.environment();
        env.keySet().removeAll(CLEARED_ENVIRONMENT);
        env.putAll(spec.environment());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + spec.command(), e);
        }
        ChildProcess started = new ChildProcess(spec, process);
        try {
            started.awaitAccepting(spec.port(), timeout);
        } catch (AssertionError e) {
            started.close();
            throw e;
        }
        return started;
    }

    /**
     * Starts the same specification again (same command, environment and port), for restart scenarios;
     * the output goes on being appended to the same file.
     *
     * @throws IllegalStateException if this process is still running
     */
    public ChildProcess restart(Duration timeout) {
        if (process.isAlive()) {
            throw new IllegalStateException(spec.name() + " is still running");
        }
        return start(spec, timeout);
    }

    /**
     * Waits until 127.0.0.1:{@code port} accepts connections, failing at once, with the output, when the
     * process exits first. {@link #start} does this for the specification's port; a process that opens
     * several ports can be waited on for the others.
     *
     * @throws AssertionError quoting the process's output
     */
    public void awaitAccepting(int port, Duration timeout) {
        try {
            Await.until(spec.name() + " to accept on 127.0.0.1:" + port, timeout,
                    () -> !process.isAlive() || FreePort.accepts(port));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; output of " + spec.name() + ":\n" + output(), e);
        }
        if (!process.isAlive()) {
            throw new AssertionError(spec.name() + " exited with status " + process.exitValue()
                    + " before listening on " + port + "; output:\n" + output());
        }
    }

    /** The specification it was started from. */
    public ProcessSpec spec() {
        return spec;
    }

    /** The port it was started on ({@link ProcessSpec#port()}). */
    public int port() {
        return spec.port();
    }

    /** {@code 127.0.0.1:port}. */
    public String address() {
        return "127.0.0.1:" + spec.port();
    }

    /** The process id (a launch script that execs java has the JVM's id). */
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Where its stdout and stderr go. */
    public Path outputFile() {
        return spec.outputFile();
    }

    /** Everything the process (and earlier runs of the same specification) wrote so far. */
    public String output() {
        Path file = spec.outputFile();
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    /** Its exit status, or -1 while it runs. */
    public int exitStatus() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** Kills it at once (SIGKILL), as a crash would, and waits up to {@link #STOP_TIMEOUT} for the exit. */
    public void kill() {
        process.destroyForcibly();
        awaitExit(STOP_TIMEOUT);
    }

    /**
     * SIGTERM (its shutdown hooks run), then SIGKILL if it has not exited within {@code timeout}.
     * Idempotent; {@link #exitStatus()} tells how it ended.
     *
     * @return whether it exited on SIGTERM within the timeout, or had already exited (false if it had to
     *         be killed)
     */
    public boolean stop(Duration timeout) {
        if (!process.isAlive()) {
            return true;
        }
        process.destroy();
        if (awaitExit(timeout)) {
            return true;
        }
        process.destroyForcibly();
        awaitExit(STOP_TIMEOUT);
        return false;
    }

    /**
     * Sends SIGTERM to every process first, then waits for each as {@link #stop(Duration)} does, so their
     * shutdowns overlap.
     *
     * @return whether every one exited on SIGTERM within the timeout
     */
    public static boolean stopAll(Duration timeout, ChildProcess... processes) {
        for (ChildProcess child : processes) {
            if (child.process.isAlive()) {
                child.process.destroy();
            }
        }
        boolean clean = true;
        for (ChildProcess child : processes) {
            clean &= child.stop(timeout);
        }
        return clean;
    }

    private boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return false;
        }
    }

    /** {@link #stop(Duration)} with {@link #STOP_TIMEOUT}. */
    @Override
    public void close() {
        stop(STOP_TIMEOUT);
    }

    @Override
    public String toString() {
        return spec.name() + "[pid " + process.pid() + ", " + address() + "]";
    }
}
