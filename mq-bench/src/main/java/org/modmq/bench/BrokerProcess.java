package org.modmq.bench;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One broker launched as a child process of this JVM ({@code bin/mqbroker -c <conf>}, which execs
 * java, so the child is the broker's JVM): started, killed with SIGKILL, stopped with SIGTERM. Only
 * the process this object started is ever signalled. Output is appended to one log file.
 *
 * <p>Used by one thread.
 */
final class BrokerProcess {

    private static final long CONNECT_TIMEOUT_MILLIS = 200;

    private final List<String> command;
    private final File log;
    private final InetSocketAddress address;
    private Process process;

    /** @param address where the broker listens, for {@link #awaitListening} */
    BrokerProcess(List<String> command, File log, InetSocketAddress address) {
        this.command = List.copyOf(command);
        this.log = Objects.requireNonNull(log, "log");
        this.address = Objects.requireNonNull(address, "address");
    }

    /** Starts the broker; returns {@link System#nanoTime()} right before the launch. */
    long start() throws BenchException {
        if (process != null && process.isAlive()) {
            throw new BenchException("broker " + process.pid() + " is still running");
        }
        long started = System.nanoTime();
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        } catch (IOException e) {
            throw new BenchException("cannot start " + command + ": " + e.getMessage(), e);
        }
        return started;
    }

    long pid() {
        return process == null ? -1 : process.pid();
    }

    /** Polls the port until it accepts a connection; returns when it did, or -1 at the deadline or exit. */
    long awaitListening(long deadlineNanos) throws InterruptedException {
        while (System.nanoTime() - deadlineNanos < 0 && process.isAlive()) {
            try (Socket socket = new Socket()) {
                socket.connect(address, (int) CONNECT_TIMEOUT_MILLIS);
                return System.nanoTime();
            } catch (IOException e) {
                Pacing.pause(TimeUnit.MILLISECONDS.toNanos(5));
            }
        }
        return -1;
    }

    /** SIGKILL to the broker this object started, then waits for it to be gone. */
    void kill() throws BenchException, InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new BenchException("broker " + process.pid() + " still alive 30 s after SIGKILL");
        }
    }

    /** SIGTERM (the broker drains and flushes), SIGKILL if it is not gone after {@code seconds}. */
    void stop(long seconds) throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** SIGKILL without waiting, if it still runs (shutdown hook: this JVM must not leave the broker behind). */
    void killQuietly() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
        }
    }

    boolean alive() {
        return process != null && process.isAlive();
    }
}
