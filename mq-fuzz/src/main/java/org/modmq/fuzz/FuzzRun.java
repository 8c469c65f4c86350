package org.modmq.fuzz;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.modmq.fuzz.FuzzReport.TrialKind;
import org.modmq.fuzz.RawConnection.Closed;
import org.modmq.fuzz.RawConnection.Frame;
import org.modmq.fuzz.RawConnection.Received;

/**
 * A bounded fuzz run against one server over one connection at a time. Each trial sends a generated
 * request (well-formed, spoiled, or several at once) and then checks:
 * <ul>
 *   <li>a request that expects an answer gets one within the answer timeout; a well-formed frame is never
 *       answered by closing the connection;</li>
 *   <li>a frame the framing rules refuse (length, serialize type, header length) closes the connection
 *       without an answer, and so does a half-close in the middle of a frame;</li>
 *   <li>afterwards the server answers a well-formed probe with SUCCESS, on the same connection when it is
 *       still open, else on a new one;</li>
 *   <li>no answer is a SYSTEM_ERROR naming an exception class (what a server says for an exception its
 *       processor did not expect, an NPE say) rather than a clear error;</li>
 *   <li>when the answer is a refusal (any code but SUCCESS, FLUSH_DISK_TIMEOUT, FLUSH_SLAVE_TIMEOUT and
 *       SLAVE_NOT_AVAILABLE), or the frame could not be processed, the target's stored state is unchanged.</li>
 * </ul>
 * Trial {@code i} draws from a random seeded by the run's seed and {@code i}, so a run is repeated by its
 * seed (the server's state, which earlier trials changed, is part of what is repeated only when the run
 * starts from the same state). Not thread-safe: one thread runs it; {@link #run} returns when done.
 */
public final class FuzzRun {

    private static final int CONNECT_TIMEOUT_MILLIS = 3_000;
    private static final Set<Integer> STORING_CODES = Set.of(0, 10, 11, 12);
    private static final int SUCCESS = 0;
    private static final int HEX_SHOWN = 256;
    /** The {@code wanted} of a wait for the pending answers; no request or probe has this opaque. */
    private static final int SETTLE = Integer.MIN_VALUE + 1;
    private static final long SETTLE_MILLIS = 500;
    /** How a server describes an exception it did not expect (modmq and RocketMQ: the class's simple name). */
    private static final java.util.regex.Pattern UNEXPECTED = java.util.regex.Pattern.compile(
            "^[A-Z][A-Za-z0-9$]*(Exception|Error)(: .*)?$", java.util.regex.Pattern.DOTALL);

    private final FuzzTarget target;
    private final FuzzBudget budget;
    private final long seed;
    private final FuzzReport report;
    private RawConnection connection;
    private int opaque = 1 << 24;
    /** Probes count in a range of their own: a spoiled frame's opaque one bit off never names a probe. */
    private int probeOpaque = 0xA5000000;
    private boolean unsettled;
    /** Requests on the open connection whose answer has not arrived yet (their processing may still store). */
    private final Set<Integer> pending = new HashSet<>();
    private final Set<String> garbageSeen = new HashSet<>();
    private FuzzRequest lastRequest;
    private byte[] lastBytes = new byte[0];

    private FuzzRun(FuzzTarget target, FuzzBudget budget, long seed) {
        this.target = target;
        this.budget = budget;
        this.seed = seed;
        this.report = new FuzzReport(seed);
    }

    /**
     * Runs trials until the budget's tries or time are used up, or the server stops answering.
     *
     * @return what was done and found; failures are in the report, never thrown
     */
    public static FuzzReport run(FuzzTarget target, FuzzBudget budget, long seed) {
        return new FuzzRun(target, budget, seed).execute();
    }

    private FuzzReport execute() {
        long start = System.nanoTime();
        long deadline = start + budget.time().toNanos();
        boolean aborted = false;
        try {
            garbageSeen.addAll(target.garbage().get());
            for (long i = 0; i < budget.tries() && System.nanoTime() - deadline < 0; i++) {
                SplittableRandom random = Trials.random(seed, i);
                int roll = random.nextInt(100);
                TrialKind kind = roll < 60 ? TrialKind.WELL_FORMED : roll < 92 ? TrialKind.MUTATED : TrialKind.PIPELINED;
                long trialStart = System.nanoTime();
                boolean probed = switch (kind) {
                    case WELL_FORMED -> wellFormed(i, random);
                    case MUTATED -> mutated(i, random);
                    case PIPELINED -> pipelined(i, random);
                };
                if (!probed && !answersProbe(i, kind)) {
                    aborted = true;
                    break;
                }
                checkGarbage(i, kind);
                report.trial(kind, i, System.nanoTime() - trialStart, lastRequest);
            }
        } catch (Unreachable e) {
            aborted = true;
        } finally {
            drop();
        }
        report.finish(System.nanoTime() - start, aborted);
        return report;
    }

    /** @return whether the probe was already answered in this trial */
    private boolean wellFormed(long trial, SplittableRandom random) {
        FuzzRequest request = target.generator().next(random, nextOpaque());
        byte[] frame = FrameWriter.frame(request);
        remember(request, frame);
        Object before = snapshot();
        report.sent(1);
        if (!connection(trial, TrialKind.WELL_FORMED).send(frame)) {
            fail(trial, TrialKind.WELL_FORMED, "the connection was reset while a well-formed frame was sent", request, frame);
            drop();
            return false;
        }
        if (!request.expectsAnswer()) {
            report.unanswered();
            unsettled = true;
            return false;
        }
        Wait received = awaitReply(request.opaque(), new HashMap<>());
        if (received instanceof Answered answer) {
            answered(trial, TrialKind.WELL_FORMED, request, frame, answer.reply());
            checkStoredAfterRefusal(trial, TrialKind.WELL_FORMED, request, frame, before, answer.reply());
        } else if (received instanceof Gone closed) {
            report.closed("well-formed frame");
            fail(trial, TrialKind.WELL_FORMED, "closed the connection (" + closed.cause() + ") instead of answering a "
                    + "well-formed frame", request, frame);
            drop();
        } else {
            fail(trial, TrialKind.WELL_FORMED, "no answer within " + budget.answerTimeout().toMillis() + " ms", request,
                    frame);
            drop();
        }
        return false;
    }

    private boolean mutated(long trial, SplittableRandom random) {
        FuzzRequest request = target.generator().next(random, nextOpaque());
        FrameMutator.Mutated mutated = FrameMutator.mutate(random, FrameWriter.frame(request));
        SendPlan plan = SendPlan.of(mutated.bytes());
        remember(request, plan.bytes());
        String what = "mutated " + mutated.kind();
        Object before = snapshot();
        report.sent(1);
        RawConnection sink = connection(trial, TrialKind.MUTATED);
        sink.send(plan.bytes());
        if (plan.shutdown()) {
            sink.shutdownOutput();
        }
        if (plan.broken() || plan.shutdown()) {
            Map<Integer, Reply> seen = new HashMap<>();
            Wait received = awaitReply(Integer.MIN_VALUE, seen);
            if (!(received instanceof Gone)) {
                fail(trial, TrialKind.MUTATED, "kept the connection open after " + (plan.shutdown()
                        ? "a half-close in the middle of a frame" : "a frame the framing rules refuse (" + plan.first()
                        + ")"), request, plan.bytes());
            } else if (plan.firstBroken() && seen.containsKey(request.opaque())) {
                fail(trial, TrialKind.MUTATED, "answered a frame the framing rules refuse (" + plan.first() + ")",
                        request, plan.bytes());
            }
            report.closed(what);
            report.unanswered();
            // Frames before the one that broke, or before the half-close, may have been processed.
            if (!target.closeUndoes() && (plan.firstBroken() || plan.first().kind() == FrameShape.Kind.INCOMPLETE)) {
                checkStored(trial, TrialKind.MUTATED, request, plan.bytes(), before, "a frame that was never processed");
            }
            drop();
            return false;
        }
        int probeId = nextProbeOpaque();
        report.probe();
        Map<Integer, Reply> seen = new HashMap<>();
        sink.send(FrameWriter.frame(target.probe().apply(probeId)));
        Wait received = awaitReply(probeId, seen);
        Reply answer = seen.get(request.opaque());
        if (answer != null) {
            answered(trial, TrialKind.MUTATED, request, plan.bytes(), answer);
            checkStoredAfterRefusal(trial, TrialKind.MUTATED, request, plan.bytes(), before, answer);
        } else {
            report.unanswered();
            unsettled = true;
            // The probe may run on another executor and overtake it: its answer (and store) may come later.
            pending.add(request.opaque());
        }
        if (received instanceof Answered probe) {
            checkProbe(trial, TrialKind.MUTATED, probe.reply(), request, plan.bytes());
            return true;
        }
        if (received instanceof Gone) {
            report.closed(what);
        } else {
            fail(trial, TrialKind.MUTATED, "neither answered nor closed after a spoiled frame (" + plan.first()
                    + "), and the probe behind it got no answer", request, plan.bytes());
        }
        drop();
        return false;
    }

    private boolean pipelined(long trial, SplittableRandom random) {
        List<FuzzRequest> requests = new ArrayList<>();
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        for (int n = 2 + random.nextInt(4); n > 0; n--) {
            FuzzRequest request = target.generator().next(random, nextOpaque());
            requests.add(request);
            bytes.writeBytes(FrameWriter.frame(request));
        }
        snapshot();
        byte[] all = bytes.toByteArray();
        remember(requests.get(requests.size() - 1), all);
        report.sent(requests.size());
        connection(trial, TrialKind.PIPELINED).send(all);
        Map<Integer, Reply> seen = new HashMap<>();
        for (FuzzRequest request : requests) {
            if (!request.expectsAnswer()) {
                report.unanswered();
                unsettled = true;
                continue;
            }
            Wait received = seen.containsKey(request.opaque()) ? null : awaitReply(request.opaque(), seen);
            if (received instanceof Answered answer) {
                seen.put(request.opaque(), answer.reply());
            } else if (received != null) {
                if (received instanceof Gone) {
                    report.closed("pipelined well-formed frames");
                }
                fail(trial, TrialKind.PIPELINED, (received instanceof Gone ? "closed the connection" : "no answer")
                        + " for one of " + requests.size() + " pipelined well-formed requests", request, all);
                drop();
                return false;
            }
            answered(trial, TrialKind.PIPELINED, request, all, seen.get(request.opaque()));
        }
        return false;
    }

    /** Sends a probe, on a new connection when the current one is gone, and checks its answer. */
    private boolean answersProbe(long trial, TrialKind kind) {
        for (int attempt = 0; attempt < 2; attempt++) {
            RawConnection probing = connection == null || connection.closedByPeer() ? reconnect(trial, kind) : connection;
            if (probing == null) {
                return false;
            }
            FuzzRequest probe = target.probe().apply(nextProbeOpaque());
            report.probe();
            probing.send(FrameWriter.frame(probe));
            Wait received = awaitReply(probe.opaque(), new HashMap<>());
            if (received instanceof Answered answer) {
                checkProbe(trial, kind, answer.reply(), probe, FrameWriter.frame(probe));
                return true;
            }
            if (received instanceof Quiet) {
                fail(trial, kind, "a well-formed probe got no answer within " + budget.answerTimeout().toMillis()
                        + " ms", probe, FrameWriter.frame(probe));
            }
            drop();
        }
        fail(trial, kind, "the server stopped answering well-formed requests", target.probe().apply(0), new byte[0]);
        return false;
    }

    /** Counts an answer and fails the trial when it reports an exception the server did not expect. */
    private void answered(long trial, TrialKind kind, FuzzRequest request, byte[] bytes, Reply reply) {
        report.answer(reply.code());
        if (reply.code() == 1 && reply.remark() != null && UNEXPECTED.matcher(reply.remark()).matches()) {
            fail(trial, kind, "answered with an exception the server did not expect instead of a clear error: "
                    + Printable.of(reply.remark(), 300), request, bytes);
        }
    }

    private void checkProbe(long trial, TrialKind kind, Reply reply, FuzzRequest probe, byte[] bytes) {
        if (reply.code() != SUCCESS) {
            fail(trial, kind, "the probe was answered with code " + reply.code() + " (" + reply.remark() + ")", probe,
                    bytes);
        }
    }

    private void checkStoredAfterRefusal(long trial, TrialKind kind, FuzzRequest request, byte[] bytes, Object before,
                                         Reply answer) {
        if (!STORING_CODES.contains(answer.code())) {
            checkStored(trial, kind, request, bytes, before, "a refusal with code " + answer.code() + " ("
                    + Printable.of(answer.remark(), 160) + ")");
        }
    }

    private void checkStored(long trial, TrialKind kind, FuzzRequest request, byte[] bytes, Object before, String after) {
        if (before == null) {
            return;
        }
        Object now = target.storedState().get();
        report.storedCheck();
        if (!before.equals(now)) {
            fail(trial, kind, "the stored state changed after " + after + ":\n    before " + Printable.of(
                    String.valueOf(before), 400) + "\n    after  " + Printable.of(String.valueOf(now), 400), request, bytes);
        }
    }

    /** Fails the trial for every stored item that should not exist and was not there before. */
    private void checkGarbage(long trial, TrialKind kind) {
        for (String item : target.garbage().get()) {
            if (garbageSeen.add(item)) {
                fail(trial, kind, "the server now stores what no request should make it store: " + Printable.of(item,
                        300), lastRequest, lastBytes);
            }
        }
    }

    /** The stored state before a trial, or null when an earlier request may still be in flight. */
    private Object snapshot() {
        settle();
        if (unsettled) {
            unsettled = false;
            return null;
        }
        return target.storedState().get();
    }

    /**
     * Waits, at most {@link #SETTLE_MILLIS}, for the answers still pending on the connection, so that a
     * request processed after the trial that sent it does not change the state under a later trial's check.
     * What is still pending then is given up (the next check is skipped).
     */
    private void settle() {
        if (pending.isEmpty()) {
            return;
        }
        if (connection != null) {
            awaitReply(SETTLE, new HashMap<>(), Duration.ofMillis(SETTLE_MILLIS));
        }
        if (!pending.isEmpty()) {
            pending.clear();
            unsettled = true;
        }
    }

    /** How waiting for one answer ended. */
    private sealed interface Wait permits Answered, Gone, Quiet {
    }

    /** The awaited response arrived. */
    private record Answered(Reply reply) implements Wait {
    }

    /** The server closed the connection first. */
    private record Gone(String cause) implements Wait {
    }

    /** Nothing arrived in time. */
    private record Quiet() implements Wait {
    }

    /** The server no longer accepts connections: the run ends. */
    private static final class Unreachable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unreachable() {
            super(null, null, false, false);
        }
    }

    /**
     * Reads until the response with {@code wanted} arrives; every response seen on the way is put in
     * {@code seen}. Requests the server sends (notifications) are skipped.
     */
    private Wait awaitReply(int wanted, Map<Integer, Reply> seen) {
        return awaitReply(wanted, seen, budget.answerTimeout());
    }

    /** As above; {@link #SETTLE} as {@code wanted} returns once no answer is {@link #pending}. */
    private Wait awaitReply(int wanted, Map<Integer, Reply> seen, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Received received = connection == null ? new Closed("no connection") : connection.read(deadline);
            if (received instanceof Closed closed) {
                return new Gone(closed.cause());
            }
            if (!(received instanceof Frame frame)) {
                return new Quiet();
            }
            Reply reply;
            try {
                reply = Reply.decode(frame.serializeType(), frame.header(), frame.body(), target.json());
            } catch (RuntimeException e) {
                drop();
                return new Gone("unreadable answer: " + e.getMessage());
            }
            if (!reply.isResponse()) {
                continue;
            }
            seen.put(reply.opaque(), reply);
            pending.remove(reply.opaque());
            if (reply.opaque() == wanted || (wanted == SETTLE && pending.isEmpty())) {
                return new Answered(reply);
            }
        }
    }

    private RawConnection connection(long trial, TrialKind kind) {
        if ((connection == null || connection.closedByPeer()) && reconnect(trial, kind) == null) {
            throw new Unreachable();
        }
        return connection;
    }

    private RawConnection reconnect(long trial, TrialKind kind) {
        drop();
        try {
            connection = RawConnection.open(target.host(), target.port(), CONNECT_TIMEOUT_MILLIS);
            return connection;
        } catch (IOException e) {
            fail(trial, kind, "the server does not accept connections: " + e, target.probe().apply(0), new byte[0]);
            return null;
        }
    }

    /** Closes the connection; what the server undoes for a closed connection (registrations) may lag. */
    private void drop() {
        if (connection != null) {
            connection.close();
            connection = null;
            unsettled = true;
            pending.clear();
        }
    }

    private void remember(FuzzRequest request, byte[] bytes) {
        lastRequest = request;
        lastBytes = bytes;
    }

    private int nextOpaque() {
        return opaque++;
    }

    private int nextProbeOpaque() {
        return probeOpaque++;
    }

    private void fail(long trial, TrialKind kind, String what, FuzzRequest request, byte[] bytes) {
        report.fail(new FuzzReport.Failure(trial, seed, kind, what, request.describe(), Printable.hex(bytes, HEX_SHOWN)));
    }
}
