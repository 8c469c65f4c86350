package org.modmq.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One process this test started (a stock or a modmq name server or broker) listening on
 * 127.0.0.1:{@link #port()}. Its stdout and stderr go to {@link #outputFile()}, which failure messages
 * quote. {@link #close()} stops it with SIGTERM and, after a bounded wait, SIGKILL, always through
 * its own {@link Process} handle; idempotent. Used from test threads only.
 */
final class ChildProcess implements AutoCloseable {

    /** How long a stopping process may run its shutdown hooks before it is killed. */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path workDir;
    private final Path outputFile;
    private final int port;
    private final Process process;

    private ChildProcess(String name, List<String> command, Map<String, String> environment, Path workDir,
            Path outputFile, int port, Process process) {
        this.name = name;
        this.command = command;
        this.environment = environment;
        this.workDir = workDir;
        this.outputFile = outputFile;
        this.port = port;
        this.process = process;
    }

    /**
     * Starts {@code command} in {@code workDir} with {@code environment} added and waits until
     * 127.0.0.1:{@code port} accepts connections.
     *
     * @throws AssertionError with the process output if it exits or the port stays closed
     */
    static ChildProcess start(String name, List<String> command, Map<String, String> environment, Path workDir,
            int port, Duration timeout) {
        Objects.requireNonNull(name, "name");
        Path output = workDir.resolve(name + ".out");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        Map<String, String> env = builder.environment();
        env.remove("JAVA_OPTS");
        env.remove("NAMESRV_ADDR");
        env.remove("ROCKETMQ_HOME");
        env.putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        ChildProcess started = new ChildProcess(name, List.copyOf(command), Map.copyOf(environment), workDir, output,
                port, process);
        try {
            Await.value(name + " to accept on 127.0.0.1:" + port, timeout, () -> {
                if (!process.isAlive()) {
                    throw new AssertionError(name + " exited with status " + process.exitValue()
                            + " before listening; output:\n" + started.output());
                }
                return FreePort.accepts(port) ? Boolean.TRUE : null;
            });
        } catch (AssertionError e) {
            started.close();
            throw new AssertionError(e.getMessage() + "; output of " + name + ":\n" + started.output(), e);
        }
        return started;
    }

    /** Starts the same command again (same configuration and port); this process must have stopped. */
    ChildProcess restart(Duration timeout) {
        if (process.isAlive()) {
            throw new IllegalStateException(name + " is still running");
        }
        return start(name, command, environment, workDir, port, timeout);
    }

    int port() {
        return port;
    }

    /** {@code 127.0.0.1:port}. */
    String address() {
        return "127.0.0.1:" + port;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path outputFile() {
        return outputFile;
    }

    /** Everything the process wrote so far. */
    String output() {
        try {
            return Files.exists(outputFile) ? Files.readString(outputFile, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read " + outputFile + ": " + e + ")";
        }
    }

    /**
     * SIGTERM (its shutdown hooks run), then SIGKILL if it has not exited within {@code timeout}.
     * Idempotent.
     *
     * @return whether it exited on SIGTERM within the timeout (false if it had to be killed)
     */
    boolean stop(Duration timeout) {
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
     * Sends SIGTERM to every process first, then waits for each as {@link #stop(Duration)} does, so
     * their shutdowns overlap.
     *
     * @return whether every one exited on SIGTERM within the timeout
     */
    static boolean stopAll(Duration timeout, ChildProcess... processes) {
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

    @Override
    public void close() {
        stop(STOP_TIMEOUT);
    }

    @Override
    public String toString() {
        return name + "[pid " + process.pid() + ", " + address() + "]";
    }
}
