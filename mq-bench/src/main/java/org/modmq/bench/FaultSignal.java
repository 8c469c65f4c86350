package org.modmq.bench;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Sends one POSIX signal to one process, by its id: SIGKILL through {@link ProcessHandle} (a direct
 * {@code kill(2)}), SIGSTOP and SIGCONT through {@code /bin/kill}, which the JDK cannot send. Each call
 * returns the {@link System#nanoTime()} taken right before the signal went out, the zero of every
 * failover timing.
 */
enum FaultSignal {
    /** SIGKILL: the process dies at once; the kernel closes its sockets. */
    KILL,
    /** SIGSTOP: the process freezes; its sockets stay open and nothing answers. */
    STOP,
    /** SIGCONT: a stopped process runs again. */
    CONT;

    private static final long KILL_COMMAND_TIMEOUT_SECONDS = 10;

    /**
     * Signals {@code pid}.
     *
     * @return {@link System#nanoTime()} right before the signal was sent
     * @throws BenchException if there is no such process or the signal could not be sent
     */
    long send(long pid) throws BenchException, InterruptedException {
        return send(pid, nanos -> { });
    }

    /**
     * Signals {@code pid}, first handing {@code beforeSignal} the time that is returned, so that a caller
     * can mark that moment before anything the signal causes can be observed.
     *
     * @return {@link System#nanoTime()} right before the signal was sent
     * @throws BenchException if there is no such process or the signal could not be sent
     */
    long send(long pid, LongConsumer beforeSignal) throws BenchException, InterruptedException {
        ProcessHandle process = ProcessHandle.of(pid)
                .orElseThrow(() -> new BenchException("no process " + pid + " to send SIG" + name()));
        if (this == KILL) {
            if (!process.isAlive()) {
                throw new BenchException("process " + pid + " is not alive");
            }
            long sent = System.nanoTime();
            beforeSignal.accept(sent);
            if (!process.destroyForcibly()) {
                throw new BenchException("SIGKILL to " + pid + " was refused");
            }
            return sent;
        }
        // Signal 0 checks the process and warms up process spawning, whose first use in a JVM costs tens of
        // milliseconds that would otherwise fall between the time taken and the signal.
        runKill("-0", pid);
        return runKill("-" + name(), pid, beforeSignal);
    }

    private static void runKill(String signal, long pid) throws BenchException, InterruptedException {
        runKill(signal, pid, nanos -> { });
    }

    private static long runKill(String signal, long pid, LongConsumer beforeSignal)
            throws BenchException, InterruptedException {
        List<String> command = List.of("/bin/kill", signal, Long.toString(pid));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        long sent = System.nanoTime();
        beforeSignal.accept(sent);
        Process kill;
        try {
            kill = builder.start();
        } catch (IOException e) {
            throw new BenchException("cannot run " + String.join(" ", command), e);
        }
        if (!kill.waitFor(KILL_COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            kill.destroyForcibly();
            throw new BenchException(String.join(" ", command) + " did not finish within "
                    + KILL_COMMAND_TIMEOUT_SECONDS + " s");
        }
        if (kill.exitValue() != 0) {
            throw new BenchException(String.join(" ", command) + " exited with " + kill.exitValue());
        }
        return sent;
    }

    /** {@code kill}, {@code stop}, {@code cont}. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
