package org.modmq.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The history of one broker set's registrations at the name server, as a {@link RouteWatcher} polled
 * them: one {@link BrokerSetView} per change (the first poll, then every poll whose answer differs from
 * the one before), plus poll counts and the longest interval between two answered polls since
 * {@link #mark}, which bounds the resolution of every time read from the log.
 *
 * <p>Thread-safe: one watcher thread records, any thread reads or waits.
 */
final class RouteLog {

    /** Changes kept at most; a set that flaps beyond this is reported as such, not remembered in full. */
    static final int MAX_CHANGES = 10_000;

    private final List<BrokerSetView> changes = new ArrayList<>();
    private BrokerSetView latest;
    private long polls;
    private long pollErrors;
    private long markNanos = Long.MAX_VALUE;
    private long lastAnswerNanos;
    private long maxGapNanos;
    private boolean truncated;

    /** Records one answered poll. */
    synchronized void record(BrokerSetView view) {
        Objects.requireNonNull(view, "view");
        polls++;
        if (lastAnswerNanos != 0 && view.nanos() >= markNanos) {
            maxGapNanos = Math.max(maxGapNanos, view.nanos() - Math.max(lastAnswerNanos, markNanos));
        }
        lastAnswerNanos = view.nanos();
        if (!view.sameAs(latest)) {
            if (changes.size() < MAX_CHANGES) {
                changes.add(view);
            } else {
                truncated = true;
            }
        }
        latest = view;
        notifyAll();
    }

    /** Records a poll that got no answer (timeout, connection refused, error code). */
    synchronized void recordError() {
        polls++;
        pollErrors++;
    }

    /** Starts measuring the longest poll interval from {@code nanos} on. */
    synchronized void mark(long nanos) {
        markNanos = nanos;
        maxGapNanos = 0;
    }

    /** The last answer, if any. */
    synchronized Optional<BrokerSetView> latest() {
        return Optional.ofNullable(latest);
    }

    /** The changes recorded so far, oldest first (a copy). */
    synchronized List<BrokerSetView> changes() {
        return List.copyOf(changes);
    }

    /** The first change recorded at or after {@code fromNanos} that matches, if any. */
    synchronized Optional<BrokerSetView> firstSince(long fromNanos, Predicate<BrokerSetView> condition) {
        return changes.stream().filter(v -> v.nanos() >= fromNanos).filter(condition).findFirst();
    }

    /**
     * Waits until a change at or after {@code fromNanos} matches, or {@code deadlineNanos} passes.
     *
     * @return the first matching change, or empty at the deadline
     * @throws InterruptedException if interrupted while waiting
     */
    synchronized Optional<BrokerSetView> awaitSince(long fromNanos, Predicate<BrokerSetView> condition,
                                                    long deadlineNanos) throws InterruptedException {
        while (true) {
            Optional<BrokerSetView> found = firstSince(fromNanos, condition);
            long left = deadlineNanos - System.nanoTime();
            if (found.isPresent() || left <= 0) {
                return found;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /**
     * Waits until the latest answer matches, or {@code deadlineNanos} passes.
     *
     * @return the matching answer, or empty at the deadline
     * @throws InterruptedException if interrupted while waiting
     */
    synchronized Optional<BrokerSetView> awaitLatest(Predicate<BrokerSetView> condition, long deadlineNanos)
            throws InterruptedException {
        while (true) {
            if (latest != null && condition.test(latest)) {
                return Optional.of(latest);
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return Optional.empty();
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /**
     * How often the master (id 0) changed among the changes recorded in [{@code fromNanos},
     * {@code toNanos}]: each time the name server shows a master whose address differs from the last
     * master shown before it (within the window, or just before it). A gap with no master in between
     * is not a change by itself.
     */
    synchronized long masterChanges(long fromNanos, long toNanos) {
        String last = null;
        long count = 0;
        for (BrokerSetView view : changes) {
            if (view.nanos() > toNanos) {
                break;
            }
            String master = view.master();
            if (master == null) {
                continue;
            }
            if (view.nanos() >= fromNanos && last != null && !last.equals(master)) {
                count++;
            }
            last = master;
        }
        return count;
    }

    /** How often the set had no master at all within the window (runs of answers without an id 0). */
    synchronized long masterGaps(long fromNanos, long toNanos) {
        long count = 0;
        boolean had = false;
        for (BrokerSetView view : changes) {
            if (view.nanos() > toNanos) {
                break;
            }
            boolean has = view.master() != null;
            if (!has && had && view.nanos() >= fromNanos) {
                count++;
            }
            had = has;
        }
        return count;
    }

    synchronized long polls() {
        return polls;
    }

    synchronized long pollErrors() {
        return pollErrors;
    }

    /** The longest interval between two answered polls since {@link #mark} (0 before two answers). */
    synchronized long maxGapNanos() {
        return maxGapNanos;
    }

    /** Whether more than {@link #MAX_CHANGES} changes happened (the rest were counted as polls only). */
    synchronized boolean truncated() {
        return truncated;
    }
}
