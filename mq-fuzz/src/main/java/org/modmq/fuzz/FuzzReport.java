package org.modmq.fuzz;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a fuzz run did and found: trials by kind, requests sent, answers by response code, connections
 * the server closed, and every failure with what is needed to reproduce it. Filled by one
 * {@link FuzzRun} thread; read it after the run. Not thread-safe.
 */
public final class FuzzReport {

    /** The kinds of trial. */
    public enum TrialKind {
        /** One well-formed request (its fields may still be nonsense). */
        WELL_FORMED,
        /** A well-formed request's frame, spoiled by {@link FrameMutator}. */
        MUTATED,
        /** Several well-formed requests in one write. */
        PIPELINED
    }

    /**
     * One property that did not hold.
     *
     * @param trial   the trial's index in the run
     * @param seed    the run's seed
     * @param kind    the trial's kind
     * @param what    which property, and what was seen instead
     * @param request the request, described
     * @param frame   the first bytes sent, in hex
     */
    public record Failure(long trial, long seed, TrialKind kind, String what, String request, String frame) {
        @Override
        public String toString() {
            return "trial " + trial + " (seed " + seed + ", " + kind + "): " + what + "\n  request: " + request
                    + "\n  bytes: " + frame;
        }
    }

    /** Failures kept in full; later ones are only counted. */
    public static final int KEPT_FAILURES = 50;

    private final long seed;
    private final Map<TrialKind, Long> trials = new EnumMap<>(TrialKind.class);
    private final Map<TrialKind, Long> trialNanos = new EnumMap<>(TrialKind.class);
    private long slowestNanos;
    private String slowest = "none";
    private final Map<Integer, Long> answersByCode = new TreeMap<>();
    private final Map<String, Long> closes = new TreeMap<>();
    private final List<Failure> failures = new ArrayList<>();
    private long failureCount;
    private long requestsSent;
    private long probesSent;
    private long unanswered;
    private long storedChecks;
    private long elapsedNanos;
    private boolean aborted;

    FuzzReport(long seed) {
        this.seed = seed;
    }

    void trial(TrialKind kind, long index, long nanos, FuzzRequest request) {
        trials.merge(kind, 1L, Long::sum);
        trialNanos.merge(kind, nanos, Long::sum);
        if (nanos > slowestNanos) {
            slowestNanos = nanos;
            slowest = "trial " + index + " (" + kind + ", " + request.describe() + ")";
        }
    }

    void sent(int requests) {
        requestsSent += requests;
    }

    void probe() {
        probesSent++;
    }

    void answer(int code) {
        answersByCode.merge(code, 1L, Long::sum);
    }

    void unanswered() {
        unanswered++;
    }

    void closed(String after) {
        closes.merge(after, 1L, Long::sum);
    }

    void storedCheck() {
        storedChecks++;
    }

    void fail(Failure failure) {
        failureCount++;
        if (failures.size() < KEPT_FAILURES) {
            failures.add(failure);
        }
    }

    void finish(long nanos, boolean abortedRun) {
        elapsedNanos = nanos;
        aborted = abortedRun;
    }

    /** @return the run's seed */
    public long seed() {
        return seed;
    }

    /** @return trials made, all kinds */
    public long trials() {
        return trials.values().stream().mapToLong(Long::longValue).sum();
    }

    /** @return trials by kind */
    public Map<TrialKind, Long> trialsByKind() {
        return Collections.unmodifiableMap(trials);
    }

    /** @return fuzz requests sent (frames, spoiled ones included; probes not) */
    public long requestsSent() {
        return requestsSent;
    }

    /** @return well-formed probe requests sent */
    public long probesSent() {
        return probesSent;
    }

    /** @return answers to fuzz requests, by response code */
    public Map<Integer, Long> answersByCode() {
        return Collections.unmodifiableMap(answersByCode);
    }

    /** @return connections the server closed, by what was sent last */
    public Map<String, Long> closes() {
        return Collections.unmodifiableMap(closes);
    }

    /** @return requests that expected no answer and got none (one-way, response-flagged), or whose frame was spoiled */
    public long unansweredByDesign() {
        return unanswered;
    }

    /** @return refused requests after which the stored state was compared */
    public long storedChecks() {
        return storedChecks;
    }

    /** @return the first {@link #KEPT_FAILURES} failures */
    public List<Failure> failures() {
        return Collections.unmodifiableList(failures);
    }

    /** @return all failures, kept or not */
    public long failureCount() {
        return failureCount;
    }

    /** @return whether the run stopped early because the server no longer answered */
    public boolean aborted() {
        return aborted;
    }

    /** @return the run's wall-clock time in milliseconds */
    public long elapsedMillis() {
        return elapsedNanos / 1_000_000;
    }

    /** @return a few lines: the figures, then each kept failure */
    public String summary() {
        StringBuilder text = new StringBuilder();
        text.append("seed ").append(seed).append(", ").append(trials()).append(" trials ").append(trials)
                .append(" in ").append(elapsedMillis()).append(" ms").append(aborted ? " (ABORTED)" : "").append('\n');
        text.append("requests sent ").append(requestsSent).append(", probes ").append(probesSent)
                .append(", no answer by design ").append(unanswered).append(", stored-state checks ")
                .append(storedChecks).append('\n');
        text.append("answers by code ").append(answersByCode).append('\n');
        text.append("ms per trial");
        trials.forEach((kind, count) -> text.append(' ').append(kind).append('=').append(String.format(
                java.util.Locale.ROOT, "%.1f", trialNanos.get(kind) / 1e6 / count)));
        text.append(", slowest ").append(slowestNanos / 1_000_000).append(" ms: ").append(slowest).append('\n');
        text.append("closed by the server ").append(closes).append('\n');
        text.append("failures ").append(failureCount);
        failures.forEach(failure -> text.append('\n').append(failure));
        return text.toString();
    }
}
