package org.modmq.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.modmq.testkit.process.ChildProcess;

/**
 * SIGSTOP and SIGCONT for a process a test started, by its id ({@code /bin/kill -STOP <pid>}; the JDK
 * sends only SIGTERM and SIGKILL). A stopped process keeps its sockets open and answers nothing, as a
 * hung or paused JVM would. Stateless.
 */
enum PauseSignal {
    /** SIGSTOP: the process freezes. */
    STOP,
    /** SIGCONT: a stopped process runs again. */
    CONT;

    private static final long COMMAND_TIMEOUT_SECONDS = 10;

    /**
     * Sends this signal to {@code process}.
     *
     * @throws AssertionError if the process is not running or the signal could not be sent
     */
    void send(ChildProcess process) {
        if (!process.isAlive()) {
            throw new AssertionError("cannot send SIG" + name() + " to " + process + ": it is not running");
        }
        List<String> command = List.of("/bin/kill", "-" + name(), Long.toString(process.pid()));
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish");
            }
            if (kill.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " exited with " + kill.exitValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while sending SIG" + name() + " to " + process, e);
        }
    }
}
