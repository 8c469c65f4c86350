package org.modmq.compat;

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
 * One modmq process started from the distribution (a name server or a broker), listening on
 * 127.0.0.1:{@link #port()}. Its stdout and stderr go to {@link #outputFile()}, which failure
 * messages quote. {@link #close()} stops it with SIGTERM and, after a bounded wait, forcibly;
 * it is idempotent. Used from test threads only.
 */
final class ModmqProcess implements AutoCloseable {

    /** Small, fast-starting JVMs: several of these run at once on a small machine. */
    static final String TEST_HEAP_OPTS = "-Xms32m -Xmx192m -XX:MaxDirectMemorySize=256m -XX:+UseSerialGC"
            + " -XX:TieredStopAtLevel=1";

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final String name;
    private final List<String> command;
    private final Path workDir;
    private final Path outputFile;
    private final int port;
    private final Process process;

    private ModmqProcess(String name, List<String> command, Path workDir, Path outputFile, int port, Process process) {
        this.name = name;
        this.command = command;
        this.workDir = workDir;
        this.outputFile = outputFile;
        this.port = port;
        this.process = process;
    }

    /**
     * Starts {@code command} in {@code workDir} and waits until 127.0.0.1:{@code port} accepts.
     *
     * @param name    label for logs and failure messages; also the output file's name
     * @param timeout how long the port may take to open
     * @throws AssertionError with the process output if it exits or the port stays closed
     */
    static ModmqProcess start(String name, List<String> command, Path workDir, int port, Duration timeout) {
        Objects.requireNonNull(name, "name");
        Path output = workDir.resolve(name + ".out");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        Map<String, String> env = builder.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("JAVA_HEAP_OPTS", TEST_HEAP_OPTS);
        env.put("MODMQ_LOG_DIR", workDir.resolve("logs").toString());
        env.remove("JAVA_OPTS");
        env.remove("MODMQ_PID_FILE");
        // The stock tools would otherwise look up a name server over HTTP.
        env.remove("NAMESRV_ADDR");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        ModmqProcess started = new ModmqProcess(name, List.copyOf(command), workDir, output, port, process);
        try {
            started.awaitListening(timeout);
        } catch (AssertionError e) {
            started.close();
            throw e;
        }
        return started;
    }

    /** Starts the same command again on the same port, for restart scenarios; this one must be stopped. */
    ModmqProcess restart(Duration timeout) {
        if (process.isAlive()) {
            throw new IllegalStateException(name + " is still running");
        }
        return start(name, command, workDir, port, timeout);
    }

    private void awaitListening(Duration timeout) {
        try {
            Await.until(name + " to accept on 127.0.0.1:" + port, timeout, () -> {
                if (!process.isAlive()) {
                    throw new AssertionError(name + " exited with status " + process.exitValue()
                            + " before listening; output:\n" + output());
                }
                return FreePort.accepts(port);
            });
        } catch (AssertionError e) {
            if (!process.isAlive()) {
                throw e;
            }
            throw new AssertionError(e.getMessage() + "; output of " + name + ":\n" + output(), e);
        }
    }

    /** The port it listens on. */
    int port() {
        return port;
    }

    /** {@code 127.0.0.1:port}. */
    String address() {
        return "127.0.0.1:" + port;
    }

    /** The JVM's process id (the launch scripts exec java, so it is the script's id too). */
    long pid() {
        return process.pid();
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

    /** Kills it at once (SIGKILL), as a crash would; waits a bounded time for the exit. */
    void kill() {
        process.destroyForcibly();
        awaitExit(STOP_TIMEOUT);
    }

    /**
     * Asks it to stop (SIGTERM, which runs its shutdown hooks) and waits; kills it if it does not exit
     * within {@code timeout}. Idempotent.
     *
     * @return the exit status
     */
    int stop(Duration timeout) {
        if (process.isAlive()) {
            process.destroy();
            if (!awaitExit(timeout)) {
                process.destroyForcibly();
                awaitExit(STOP_TIMEOUT);
            }
        }
        return process.isAlive() ? -1 : process.exitValue();
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
