package org.modmq.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Options of the {@code failover} command (a picocli mixin): the broker set, the fault and its target,
 * the producer's settings and the bounds of every wait. Filled once by the parser, then read by the
 * command's thread only.
 */
final class FailoverOptions {

    /** The fault injected into the master. */
    enum Fault {
        /** SIGKILL: a crash. */
        KILL,
        /** SIGSTOP, later SIGCONT: a hang (long GC pause, frozen VM), after which the old master comes back. */
        STOP
    }

    @Option(names = {"--broker-name"}, required = true, paramLabel = "NAME",
            description = "The broker set (brokerName) whose master is faulted and watched.")
    String brokerName;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", defaultValue = "4",
            description = "Sending threads, each doing blocking sends (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = {"--fault"}, paramLabel = "FAULT",
            description = "${COMPLETION-CANDIDATES}: SIGKILL the master, or SIGSTOP it and SIGCONT it after the "
                    + "election (default: KILL).")
    Fault fault;

    @Option(names = {"--no-fault"},
            description = "Inject nothing: run the load and count master changes (false elections).")
    boolean noFault;

    @Option(names = {"--pid"}, paramLabel = "PID", description = "Process id of the master to fault.")
    Long pid;

    @Option(names = {"--pid-file"}, paramLabel = "FILE",
            description = "File holding the process id of the master to fault, read at the moment of the fault.")
    Path pidFile;

    @Option(names = {"--broker-pid"}, paramLabel = "HOST:PORT=PID",
            description = "A broker's address and process id (repeat for each broker): the fault hits the one "
                    + "the name server lists as master at that moment.")
    Map<String, Long> brokerPids = new LinkedHashMap<>();

    @Option(names = {"--poll-name-server-ms"}, paramLabel = "MS", defaultValue = "30000",
            description = "The producer's pollNameServerInterval: how often it refreshes its routes "
                    + "(default: ${DEFAULT-VALUE}, RocketMQ's default).")
    int pollNameServerMillis;

    @Option(names = {"--retries"}, paramLabel = "N", defaultValue = "2",
            description = "The producer's retryTimesWhenSendFailed (default: ${DEFAULT-VALUE}, RocketMQ's default).")
    int retries;

    @Option(names = {"--cont-after-ms"}, paramLabel = "MS", defaultValue = "2000",
            description = "STOP: SIGCONT the old master this long after the name server shows the new one "
                    + "(at the end of the load at the latest) (default: ${DEFAULT-VALUE}).")
    long contAfterMillis;

    @Option(names = {"--route-poll-ms"}, paramLabel = "MS", defaultValue = "5",
            description = "Delay between two cluster-info polls of the name server (default: ${DEFAULT-VALUE}).")
    long routePollMillis;

    @Option(names = {"--controller"}, paramLabel = "HOST:PORT",
            description = "A controller: the set is healthy only once its SyncStateSet holds every broker; "
                    + "master epochs before and after are reported.")
    String controller;

    @Option(names = {"--replicas"}, paramLabel = "N", defaultValue = "3",
            description = "Brokers in the set, master included, that must be registered and in sync before the "
                    + "load starts (default: ${DEFAULT-VALUE}).")
    int replicas;

    @Option(names = {"--healthy-timeout"}, paramLabel = "SECONDS", defaultValue = "120",
            description = "How long the set may take to become healthy (default: ${DEFAULT-VALUE}).")
    int healthyTimeoutSeconds;

    @Option(names = {"--rejoin-timeout"}, paramLabel = "SECONDS", defaultValue = "60",
            description = "STOP: how long after SIGCONT to wait for the old master to register as a replica "
                    + "(default: ${DEFAULT-VALUE}).")
    int rejoinTimeoutSeconds;

    @Option(names = {"--verify-timeout"}, paramLabel = "SECONDS", defaultValue = "120",
            description = "Bound of reading the topic back (default: ${DEFAULT-VALUE}).")
    int verifyTimeoutSeconds;

    @Option(names = {"--verify-idle"}, paramLabel = "SECONDS", defaultValue = "10",
            description = "Reading back stops after this long without a new message (default: ${DEFAULT-VALUE}).")
    int verifyIdleSeconds;

    @Option(names = {"--fail-pause-ms"}, paramLabel = "MS", defaultValue = "10",
            description = "Pause of a sending thread after a failed send (default: ${DEFAULT-VALUE}).")
    long failPauseMillis;

    /** The fault to inject, or {@code null} with {@code --no-fault}. */
    Fault faultOrNull() {
        return noFault ? null : fault == null ? Fault.KILL : fault;
    }

    /** Where the fault goes; {@code null} with {@code --no-fault}. */
    FaultTarget target() {
        return noFault ? null : new FaultTarget(pid, pidFile, brokerPids);
    }

    /** Checks what picocli cannot; returns an error message or {@code null}. */
    String validate() {
        if (noFault && fault != null) {
            return "--fault and --no-fault exclude each other";
        }
        int targets = (pid == null ? 0 : 1) + (pidFile == null ? 0 : 1) + (brokerPids.isEmpty() ? 0 : 1);
        if (!noFault && targets != 1) {
            return "a fault needs exactly one of --pid, --pid-file and --broker-pid";
        }
        if (brokerName.isBlank()) {
            return "--broker-name must not be blank";
        }
        if (threads < 1 || replicas < 1 || retries < 0) {
            return "--threads and --replicas must be at least 1, --retries not negative";
        }
        if (pollNameServerMillis < 10 || routePollMillis < 1 || contAfterMillis < 0 || failPauseMillis < 0) {
            return "--poll-name-server-ms must be at least 10, --route-poll-ms at least 1, "
                    + "--cont-after-ms and --fail-pause-ms not negative";
        }
        if (healthyTimeoutSeconds < 1 || rejoinTimeoutSeconds < 1 || verifyTimeoutSeconds < 1 || verifyIdleSeconds < 1) {
            return "--healthy-timeout, --rejoin-timeout, --verify-timeout and --verify-idle must be at least 1";
        }
        return null;
    }
}
