package org.modmq.broker.timer;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.StoredMessage;
import org.modmq.broker.config.TimerConfig;
import org.modmq.broker.stats.MessageEvents;
import org.modmq.store.AppendedPut;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timer duty cycle. While the store is master: indexes new {@code rmq_sys_wheel_timer} messages into
 * the {@link TimerIndex} (one due already is delivered at once), delivers every slot whose end has
 * passed into the real topics ({@link TimerDelivery}), and writes the {@link TimerCheckpoint} every
 * {@code timerFlushIntervalMs} once the deliveries it covers are durable. Becoming master (start, or a
 * role change at run time) rebuilds the wheel from the log up to the checkpoint and indexes the wheel
 * topic again from the checkpoint's queue offset; becoming a replica stops all of it. The role is the
 * store's ({@code MessageStore.role()}, read every step), which controller mode changes at run time before
 * its role hooks run, so no hook is needed. A standby agent reads the {@link TimerProgressMarker}s the
 * master appends; promoted, it skips what the latest one says was delivered.
 *
 * <p>Crash: everything after the last checkpoint is done again, so a timer delivered after it is
 * delivered a second time (at most one checkpoint interval of deliveries, plus a slot being read). A
 * timer is never lost while its wheel-topic message is still in the CommitLog; one that retention
 * removed first is skipped with a warning, as is a record that does not match its message.
 *
 * <p>Not thread-safe: {@link #doWork()} and {@link #close()} are called by one runner thread (tests step it).
 */
final class TimerAgent implements AutoCloseable {

    /** The agent's states; every change goes through {@link #transition}. */
    enum State { STANDBY, ACTIVE, CLOSED }

    /** A standby agent's park between reads of the master's markers (one is appended per checkpoint). */
    static final long STANDBY_IDLE_MS = 100;

    private static final Logger LOG = LoggerFactory.getLogger(TimerAgent.class);
    private static final int INDEX_BATCH = 256;
    private static final int DELIVER_BATCH = 1024;
    private static final int EMPTY_SLOTS_PER_CYCLE = 100_000;
    private static final long REFUSED_BACKOFF_MS = 100;

    private final TimerAccess access;
    private final TimerIndex index;
    private final TimerConfig config;
    private final Clock clock;
    private final Path checkpointFile;
    private final MessageEvents events;
    private State state = State.STANDBY;
    private long queueOffset;
    private long readMs;
    /** The record of slot {@code readMs} to read next, -1 when no slot is being read. */
    private long cursor = -1;
    private CompletableFuture<?> lastDelivery = CompletableFuture.completedFuture(null);
    private TimerCheckpoint written;
    private TimerCheckpoint pending;
    private CompletableFuture<?> pendingDurable;
    private long nextCheckpointMs;
    /** Timers delivered, indexed or skipped when {@link #written} (or {@link #pending}) was taken. */
    private long writtenWork;
    private long pendingWork;
    private long backoffUntilMs;
    private long delivered;
    private long indexed;
    private long skipped;
    /** Standby: the wheel-topic queue offset up to which progress markers were looked for. */
    private long followOffset = -1;
    /** The latest progress marker seen (queue offset and read time; geometry unused), null for none. */
    private TimerCheckpoint marker;
    /** After a promotion: timers below this queue offset and before {@link #skipBelowSlot} were delivered. */
    private long skipBelowOffset = -1;
    private long skipBelowSlot;
    private long markedDelivered;
    private long markedIndexed;

    TimerAgent(TimerAccess access, TimerIndex index, TimerConfig config, Clock clock, Path checkpointFile) {
        this(access, index, config, clock, checkpointFile, new MessageEvents());
    }

    /** @param events where timers enqueued and dequeued are counted ({@code rocketmq_timer_*}) */
    TimerAgent(TimerAccess access, TimerIndex index, TimerConfig config, Clock clock, Path checkpointFile,
               MessageEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        this.access = Objects.requireNonNull(access, "access");
        this.index = Objects.requireNonNull(index, "index");
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.checkpointFile = Objects.requireNonNull(checkpointFile, "checkpointFile");
    }

    /** One bounded step; returns how much it did (0: idle). */
    int doWork() {
        if (state == State.CLOSED) {
            return 0;
        }
        boolean master = access.master();
        if (state == State.STANDBY) {
            if (!master) {
                return follow();
            }
            activate();
            return 1;
        }
        if (!master) {
            checkpoint(clock.millis(), true);
            followOffset = queueOffset;
            marker = written;
            transition(State.STANDBY, "the store is a replica now; a master delivers the timers");
            return 1;
        }
        long now = clock.millis();
        int work = 0;
        if (now >= backoffUntilMs) {
            work += deliverDue(now);
            work += indexNew(now);
        }
        return work + checkpoint(now, false);
    }

    /** Standby: reads the progress markers the master appended (queue entries only, by tag code). */
    private int follow() {
        long max = access.maxOffset();
        if (followOffset >= max) {
            return 0;
        }
        long before = Math.max(followOffset, access.minOffset());
        TimerAccess.Batch batch = access.readMarkers(before, INDEX_BATCH);
        for (StoredMessage message : batch.messages()) {
            TimerProgressMarker.progressOf(message).filter(p -> marker == null || p.readMs() >= marker.readMs())
                    .ifPresent(p -> marker = p);
        }
        followOffset = Math.max(before, batch.nextOffset());
        return followOffset > before ? 1 : 0;
    }

    private void activate() {
        long now = clock.millis();
        for (int i = 0; i < 1_000_000 && follow() > 0; i++) {
            // catch up with every marker replicated so far
        }
        Optional<TimerCheckpoint> stored = TimerCheckpoint.read(checkpointFile);
        TimerCheckpoint from = stored.orElse(new TimerCheckpoint(index.precisionMs(), index.slots(),
                access.minOffset(), now, 0));
        skipBelowOffset = -1;
        if (marker != null && (stored.isEmpty() || marker.readMs() > from.readMs())) {
            // Another master delivered further than this broker's own checkpoint: continue from there.
            from = new TimerCheckpoint(from.precisionMs(), from.slots(), from.queueOffset(), marker.readMs(),
                    from.logEnd());
            skipBelowOffset = marker.queueOffset();
            skipBelowSlot = index.slotOf(marker.readMs());
            LOG.info("timers: continuing from the previous master's progress: slots before {} and queue offsets "
                    + "before {} were delivered", marker.readMs(), marker.queueOffset());
        }
        readMs = index.slotOf(from.readMs());
        long linked = index.rebuild(readMs, from.logEnd(), from.precisionMs(), from.slots());
        queueOffset = from.queueOffset();
        long min = access.minOffset();
        long max = access.maxOffset();
        if (queueOffset < min) {
            LOG.warn("timer queue offset {} is below the wheel topic's first held offset {}: timers in between "
                    + "were removed by CommitLog retention before they were indexed", queueOffset, min);
            queueOffset = min;
        } else if (queueOffset > max) {
            LOG.warn("timer queue offset {} is past the wheel topic's end {} (the CommitLog was truncated); "
                    + "indexing from the end", queueOffset, max);
            queueOffset = max;
        }
        cursor = -1;
        pending = null;
        written = null;
        markedDelivered = delivered;
        markedIndexed = indexed;
        pendingWork = delivered + indexed + skipped;
        lastDelivery = CompletableFuture.completedFuture(null);
        writeCheckpoint(new TimerCheckpoint(index.precisionMs(), index.slots(), queueOffset, readMs, index.force()));
        nextCheckpointMs = now + config.flushIntervalMs();
        transition(State.ACTIVE, (stored.isPresent() ? "from the checkpoint" : "without a checkpoint")
                + ": " + linked + " pending timer records, reading slot " + readMs + ", indexing from queue offset "
                + queueOffset + " of " + max);
    }

    /** Delivers the records of every slot that has ended, a bounded number per call. */
    private int deliverDue(long now) {
        int work = 0;
        int empty = 0;
        while (work < DELIVER_BATCH) {
            if (cursor < 0) {
                if (config.stopDequeue() || now < readMs + index.precisionMs()) {
                    return work;
                }
                cursor = index.head(readMs);
                if (cursor < 0) {
                    readMs += index.precisionMs();
                    if (++empty >= EMPTY_SLOTS_PER_CYCLE) {
                        return work + 1;
                    }
                    continue;
                }
            }
            TimerRecord record = index.read(cursor);
            if (record == null || record.slotMs() != readMs) {
                endSlot();
                continue;
            }
            if (index.slotOf(record.deliverMs()) > readMs) {
                index.add(record.deliverMs(), record.commitLogOffset(), record.size(), readMs);
            } else if (!deliverRecord(record, now)) {
                return work;
            }
            work++;
            cursor = record.prevPos();
            if (cursor < 0) {
                endSlot();
            }
        }
        return work;
    }

    private void endSlot() {
        cursor = -1;
        readMs += index.precisionMs();
    }

    private boolean deliverRecord(TimerRecord record, long now) {
        Optional<StoredMessage> stored = access.message(record.commitLogOffset());
        if (stored.isEmpty() || stored.get().storeSize() != record.size()
                || TimerDelivery.outMs(stored.get()) != record.deliverMs()) {
            skip("no timer message of " + record.size() + " bytes due at " + record.deliverMs()
                    + " at CommitLog offset " + record.commitLogOffset() + " (removed by retention, or truncated)");
            return true;
        }
        return deliver(stored.get(), now);
    }

    /** Stores the timer into its real topic; false when the store refused (retried later). */
    private boolean deliver(StoredMessage stored, long now) {
        Optional<BrokerMessage> message = TimerDelivery.restore(stored, now);
        if (message.isEmpty()) {
            skip("timer message at CommitLog offset " + stored.commitLogOffset() + " has no valid REAL_TOPIC/REAL_QID");
            return true;
        }
        AppendedPut put = access.append(message.get());
        if (!put.stored()) {
            backoffUntilMs = now + REFUSED_BACKOFF_MS;
            LOG.warn("delivering the timer at CommitLog offset {} to {} was refused ({}); retrying",
                    stored.commitLogOffset(), message.get().topic(), put.appended().status());
            return false;
        }
        lastDelivery = put.durable();
        delivered++;
        events.timerDequeued(message.get().topic());
        LOG.debug("timer at CommitLog offset {} delivered to {}-{} at {}", stored.commitLogOffset(),
                message.get().topic(), message.get().queueId(), put.appended().commitLogOffset());
        return true;
    }

    /** Indexes new wheel-topic messages, a bounded number per call. */
    private int indexNew(long now) {
        if (config.stopEnqueue() || queueOffset >= access.maxOffset()) {
            return 0;
        }
        long min = access.minOffset();
        if (queueOffset < min) {
            LOG.warn("timers at wheel-topic offsets {}..{} were removed by retention before they were indexed",
                    queueOffset, min - 1);
            queueOffset = min;
        }
        long before = queueOffset;
        TimerAccess.Batch batch = access.read(queueOffset, INDEX_BATCH);
        int work = 0;
        for (StoredMessage message : batch.messages()) {
            long outMs = TimerDelivery.outMs(message);
            if (TimerProgressMarker.progressOf(message).isPresent()) {
                queueOffset = message.queueOffset() + 1;
                continue;
            }
            if (outMs < 0) {
                skip("wheel-topic message at queue offset " + message.queueOffset() + " has no valid TIMER_OUT_MS");
            } else {
                long slot = index.slotOf(outMs);
                if (message.queueOffset() < skipBelowOffset && slot < skipBelowSlot) {
                    queueOffset = message.queueOffset() + 1;
                    work++;
                    continue;
                }
                if (slot < readMs || (slot == readMs && cursor >= 0)) {
                    if (!deliver(message, now)) {
                        return work;
                    }
                } else {
                    long slotMs = index.add(outMs, message.commitLogOffset(), message.storeSize(), readMs);
                    LOG.debug("timer at queue offset {} due at {} linked into slot {}", message.queueOffset(), outMs,
                            slotMs);
                }
                indexed++;
                events.timerEnqueued(message.message().propertyMap().get(TimerProperties.REAL_TOPIC));
            }
            queueOffset = message.queueOffset() + 1;
            work++;
        }
        queueOffset = Math.max(queueOffset, batch.nextOffset());
        return queueOffset > before ? Math.max(work, 1) : 0;
    }

    /**
     * Writes a checkpoint whose deliveries are durable. A snapshot is taken every interval (or now when
     * {@code immediate}) between slots only, so that no slot is half read in it.
     */
    private int checkpoint(long now, boolean immediate) {
        if (pending != null && pendingDurable.isDone()) {
            writeCheckpoint(pending);
            pending = null;
            index.deleteDelivered(written.readMs());
            if (delivered != markedDelivered || indexed != markedIndexed) {
                appendMarker(written, now);
                markedDelivered = delivered;
                markedIndexed = indexed;
            }
            return 1;
        }
        if (pending != null || cursor >= 0 || (!immediate && now < nextCheckpointMs)) {
            return 0;
        }
        nextCheckpointMs = now + config.flushIntervalMs();
        TimerCheckpoint next = new TimerCheckpoint(index.precisionMs(), index.slots(), queueOffset, readMs,
                index.logEnd());
        // Idle (only empty slots passed): an older read time just means re-reading empty slots after a crash.
        long work = delivered + indexed + skipped;
        if (written != null && work == writtenWork && next.queueOffset() == written.queueOffset()
                && next.logEnd() == written.logEnd()) {
            return 0;
        }
        pendingWork = work;
        index.force();
        pending = next;
        pendingDurable = lastDelivery;
        if (pendingDurable.isDone()) {
            return checkpoint(now, false);
        }
        return 0;
    }

    /** Tells replicas, through the replicated wheel topic, how far this master got (after it is durable here). */
    private void appendMarker(TimerCheckpoint progress, long now) {
        AppendedPut put = access.append(TimerProgressMarker.of(progress, now, access.storeHost()));
        if (!put.stored()) {
            LOG.debug("timer progress marker not stored: {}", put.appended().status());
        }
    }

    private void writeCheckpoint(TimerCheckpoint checkpoint) {
        checkpoint.write(checkpointFile);
        written = checkpoint;
        writtenWork = pendingWork;
    }

    private void skip(String why) {
        skipped++;
        if (skipped <= 10 || Long.bitCount(skipped) == 1) {
            LOG.warn("timer skipped ({} so far): {}", skipped, why);
        }
    }

    private void transition(State next, String reason) {
        LOG.info("timer agent {} -> {}: {}", state, next, reason);
        state = next;
    }

    State state() {
        return state;
    }

    /**
     * How long an idle runner may park: until the slot being waited for ends, at most {@code maxMs}; on a
     * replica (standby) at least {@link #STANDBY_IDLE_MS}, since it only follows the master's progress
     * markers and the runner is woken when the store becomes master.
     */
    long idleMs(long maxMs) {
        if (state == State.STANDBY) {
            return Math.max(maxMs, STANDBY_IDLE_MS);
        }
        if (state != State.ACTIVE || cursor >= 0 || config.stopDequeue()) {
            return maxMs;
        }
        return Math.max(1, Math.min(maxMs, readMs + index.precisionMs() - clock.millis()));
    }

    long readMs() {
        return readMs;
    }

    long queueOffset() {
        return queueOffset;
    }

    /** Timers stored into their real topic so far. */
    long delivered() {
        return delivered;
    }

    /** Wheel-topic messages indexed (or delivered at once) so far. */
    long indexed() {
        return indexed;
    }

    /** Records skipped as bad so far. */
    long skipped() {
        return skipped;
    }

    /**
     * Finishes the slot being read (bounded), writes a last checkpoint once its deliveries are durable
     * (waiting at most {@code waitMs}) and closes the index. Idempotent.
     */
    void close(long waitMs) {
        if (state == State.CLOSED) {
            return;
        }
        try {
            if (state == State.ACTIVE && access.master()) {
                long now = clock.millis();
                for (int i = 0; i < 100 && cursor >= 0; i++) {
                    deliverDue(now);
                }
                checkpoint(now, true);
                if (pending != null) {
                    pendingDurable.get(waitMs, TimeUnit.MILLISECONDS);
                    checkpoint(now, false);
                }
            }
        } catch (TimeoutException | ExecutionException e) {
            LOG.warn("timer deliveries not durable within {} ms at close; the last checkpoint stays", waitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            transition(State.CLOSED, "closed");
            index.close();
        }
    }

    @Override
    public void close() {
        close(0);
    }
}
