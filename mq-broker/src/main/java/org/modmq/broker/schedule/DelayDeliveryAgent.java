package org.modmq.broker.schedule;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.DelayLevels;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.StoredMessage;
import org.modmq.broker.metadata.DelayOffsetTable;
import org.modmq.store.AppendedPut;
import org.modmq.store.MessageStore;
import org.modmq.store.PutResult;
import org.modmq.store.QueueEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the due messages of one delay level: reads SCHEDULE_TOPIC_XXXX queue {@code level - 1} from
 * the level's delay offset and, for each entry whose delivery time (its tag code) has come, stores the
 * message again in {@code REAL_TOPIC}/{@code REAL_QID} with its properties as they were, less
 * {@code DELAY} and the timer properties and with {@code WAIT=false}, as RocketMQ does ({@code REAL_TOPIC}
 * and {@code REAL_QID} stay, as they do in RocketMQ). A delivery time further away than the level's
 * delay counts as now (RocketMQ's guard against a clock that went back or a bad entry).
 *
 * <p>The offset in {@link DelayOffsetTable} (persisted, copied to replicas) moves past a message only
 * once its delivery is acknowledged by the store (flush and replication as for a send), in queue order,
 * so a restart or a new master re-delivers from there: at most the unacknowledged tail twice, never a
 * message lost. An entry that cannot be delivered (record gone, no or bad {@code REAL_TOPIC} or
 * {@code REAL_QID}) is logged and skipped.
 *
 * <p>Runs only between {@link #start()} and {@link #stop()} (the role listener calls them; they only flip
 * a flag, the next {@link #doWork()} reloads the offset). {@link #doWork()} is serialised.
 */
public final class DelayDeliveryAgent {

    private static final Logger LOG = LoggerFactory.getLogger(DelayDeliveryAgent.class);
    /** Deliveries per {@link #doWork()}, so one busy level does not hold the scheduler. */
    static final int MAX_PER_STEP = 512;
    /** Deliveries waiting for their acknowledgement beyond which the agent waits. */
    static final int MAX_UNACKNOWLEDGED = 10_000;
    private static final String TRANS_HALF_TOPIC = "RMQ_SYS_TRANS_HALF_TOPIC";
    private static final String[] CLEARED = {MessageProperties.DELAY, "TIMER_DELIVER_MS", "TIMER_DELAY_SEC"};

    private final int level;
    private final int queueId;
    private final long delayMillis;
    private final MessageStore store;
    private final DelayOffsetTable offsets;
    private final Clock clock;
    private final AtomicInteger unacknowledged = new AtomicInteger();
    private volatile boolean active;
    private volatile boolean reload = true;
    /** When the agent has something to do next (ms, its clock); {@code Long.MAX_VALUE}: nothing queued. */
    private volatile long nextWork = Long.MAX_VALUE;
    private long next;
    /** Whether the last delivery was refused (logged once until one is stored). */
    private boolean refusing;
    /** Completes with whether every delivery before it was acknowledged; the table follows it. */
    private CompletableFuture<Boolean> acknowledged = CompletableFuture.completedFuture(true);
    /** Bumped at each reload, so acknowledgements of deliveries before it move the table no more. */
    private volatile int generation;

    public DelayDeliveryAgent(int level, DelayLevels levels, MessageStore store, DelayOffsetTable offsets,
                              Clock clock) {
        if (level < 1 || level > levels.count()) {
            throw new IllegalArgumentException("level " + level + " is not in [1, " + levels.count() + "]");
        }
        this.level = level;
        this.queueId = levels.queueId(level);
        this.delayMillis = levels.millis(level);
        this.store = Objects.requireNonNull(store, "store");
        this.offsets = Objects.requireNonNull(offsets, "offsets");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Starts delivering (this broker became master): the next step reloads the offset from the table.
     * Nothing changes while already started. Never blocks.
     */
    public void start() {
        if (!active) {
            reload = true;
            active = true;
        }
    }

    /** Stops delivering (this broker became a replica, or closes). Never blocks. */
    public void stop() {
        active = false;
        reload = true;
    }

    public boolean active() {
        return active;
    }

    public int level() {
        return level;
    }

    /** The next queue offset the agent reads (in memory; the table may trail it). */
    public synchronized long nextOffset() {
        return next;
    }

    /**
     * Delivers what is due now, at most {@link #MAX_PER_STEP} messages.
     *
     * @return the number of entries delivered or skipped
     */
    public synchronized int doWork() {
        nextWork = Long.MAX_VALUE;
        if (!active) {
            return 0;
        }
        if (reload) {
            reload = false;
            load();
        }
        int done = 0;
        while (active) {
            if (done >= MAX_PER_STEP || unacknowledged.get() >= MAX_UNACKNOWLEDGED) {
                nextWork = clock.millis() + (done >= MAX_PER_STEP ? 0 : DelayService.PERIOD_MILLIS);
                break;
            }
            Optional<QueueEntry> entry = store.queueEntry(DelayLevels.SCHEDULE_TOPIC, queueId, next);
            if (entry.isEmpty()) {
                if (!moveIntoQueue()) {
                    break;
                }
                continue;
            }
            long now = clock.millis();
            long due = entry.get().tagsCode();
            if (due > now + delayMillis) {
                due = now;
            }
            if (due > now) {
                nextWork = due;
                break;
            }
            if (!deliver(entry.get())) {
                nextWork = now + DelayService.PERIOD_MILLIS;
                break;
            }
            done++;
        }
        return done;
    }

    /**
     * When the last {@link #doWork()} found the next thing to do: the head entry's delivery time, now
     * after a full step, {@code Long.MAX_VALUE} when the queue was empty (new entries come at least the
     * level's delay later, or within the service's period).
     */
    public long nextWorkMillis() {
        return nextWork;
    }

    private void load() {
        generation++;
        acknowledged = CompletableFuture.completedFuture(true);
        long stored = offsets.get(level).orElse(0L);
        next = stored;
        moveIntoQueue();
        if (next != stored) {
            offsets.update(level, next);
        }
        LOG.info("delay level {} delivers from SCHEDULE_TOPIC_XXXX queue {} offset {}", level, queueId, next);
    }

    /** Brings {@code next} into the queue's bounds (retention, a shorter queue); whether it moved. */
    private boolean moveIntoQueue() {
        long min = store.getMinOffsetInQueue(DelayLevels.SCHEDULE_TOPIC, queueId);
        long max = store.getMaxOffsetInQueue(DelayLevels.SCHEDULE_TOPIC, queueId);
        long corrected = Math.max(min, Math.min(next, max));
        if (corrected == next) {
            return false;
        }
        LOG.error("delay level {}: offset {} is outside SCHEDULE_TOPIC_XXXX queue {} [{}, {}); continuing at {}",
                level, next, queueId, min, max, corrected);
        next = corrected;
        return true;
    }

    /** Stores the entry's message in its real topic, or skips it; false when it must be retried later. */
    private boolean deliver(QueueEntry entry) {
        BrokerMessage restored;
        try {
            restored = restore(entry).orElse(null);
        } catch (RuntimeException e) {
            LOG.error("delay level {}: entry {} (CommitLog offset {}) cannot be read, skipped: {}", level,
                    entry.queueOffset(), entry.commitLogOffset(), e.toString());
            restored = null;
        }
        long after = entry.queueOffset() + 1;
        if (restored == null) {
            next = after;
            advanceAfter(CompletableFuture.completedFuture(true), after);
            return true;
        }
        AppendedPut put = store.append(List.of(restored), true);
        if (!put.stored()) {
            if (!refusing) {
                LOG.warn("delay level {}: delivery of entry {} to {} refused ({}: {}); retried until it is stored",
                        level, entry.queueOffset(), restored.topic(), put.appended().status(), put.appended().detail());
            }
            refusing = true;
            return false;
        }
        refusing = false;
        next = after;
        unacknowledged.incrementAndGet();
        advanceAfter(put.acknowledged().thenApply(result -> {
            unacknowledged.decrementAndGet();
            return kept(result);
        }), after);
        return true;
    }

    /** Moves the table to {@code offset} once {@code step} and every earlier step succeeded. */
    private void advanceAfter(CompletableFuture<Boolean> step, long offset) {
        int current = generation;
        // Stages run in queue order (each waits for the one before), so the table only moves forward.
        acknowledged = acknowledged.thenCombine(step, (before, now) -> {
            boolean ok = before && now;
            if (ok && current == generation) {
                offsets.update(level, offset);
            } else if (before && !now) {
                LOG.warn("delay level {}: a delivery before offset {} was not kept; re-reading from the table",
                        level, offset);
                reload = true;
            }
            return ok;
        });
    }

    /** Whether a delivery's message is stored for good: anything but a store that stopped being master. */
    private static boolean kept(PutResult result) {
        PutStatus status = result.status();
        return status == PutStatus.PUT_OK || status == PutStatus.FLUSH_DISK_TIMEOUT
                || status == PutStatus.FLUSH_SLAVE_TIMEOUT || status == PutStatus.SLAVE_NOT_AVAILABLE;
    }

    /** The message to store for {@code entry}, or empty (logged) when there is nothing to deliver. */
    private Optional<BrokerMessage> restore(QueueEntry entry) {
        Optional<StoredMessage> stored = store.lookMessageByOffset(entry.commitLogOffset());
        if (stored.isEmpty()) {
            LOG.warn("delay level {}: entry {} names CommitLog offset {}, which holds no message; skipped", level,
                    entry.queueOffset(), entry.commitLogOffset());
            return Optional.empty();
        }
        BrokerMessage message = stored.get().message();
        Map<String, String> properties = message.propertyMap();
        String topic = properties.get(MessageProperties.REAL_TOPIC);
        Integer realQueue = queueIdOf(properties.get(MessageProperties.REAL_QID));
        if (topic == null || topic.isEmpty() || realQueue == null || TRANS_HALF_TOPIC.equals(topic)) {
            LOG.error("delay level {}: entry {} (CommitLog offset {}) has REAL_TOPIC={} REAL_QID={}; skipped", level,
                    entry.queueOffset(), entry.commitLogOffset(), topic, properties.get(MessageProperties.REAL_QID));
            return Optional.empty();
        }
        for (String cleared : CLEARED) {
            properties.remove(cleared);
        }
        properties.put(MessageProperties.WAIT, "false");
        return Optional.of(new BrokerMessage(topic, realQueue, message.flag(), message.body(),
                MessageProperties.encode(properties), message.bornTimestamp(), message.bornHost(),
                message.storeHost(), message.sysFlag(), message.reconsumeTimes(), 0));
    }

    private static Integer queueIdOf(String value) {
        if (value == null) {
            return null;
        }
        try {
            int id = Integer.parseInt(value.trim());
            return id >= 0 ? id : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
