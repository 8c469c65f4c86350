package org.modmq.broker.schedule;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.modmq.api.message.DelayLevels;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.broker.metadata.DelayOffsetTable;
import org.modmq.broker.metadata.TopicConfigTable;
import org.modmq.remoting.protocol.body.Perm;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.modmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The delay levels of a broker: one {@link DelayDeliveryAgent} per level, stepped every
 * {@link #PERIOD_MILLIS} on the broker scheduler, delivering only while the store is master. It follows
 * the store's role (classic or controller mode, at start and at run time): on master the agents start
 * from the delay offsets in force (a new master's were copied from the old one), on replica they stop.
 * At start it sizes SCHEDULE_TOPIC_XXXX to the level count. {@link #close()} stops the agents and
 * persists the delay offsets. Thread-safe.
 */
public final class DelayService implements AutoCloseable {

    /**
     * The longest the agents wait before looking again (RocketMQ's delivery task waits 100 ms); they look
     * earlier when a queued message is due earlier.
     */
    public static final long PERIOD_MILLIS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(DelayService.class);

    private final DelayRedirect redirect;
    private final List<DelayDeliveryAgent> agents;
    private final DelayOffsetTable offsets;
    private final Clock clock;
    private ScheduledExecutorService scheduler;
    private ScheduledFuture<?> task;
    private boolean closed;

    /**
     * Builds the agents, starts them if {@code store} is master now and follows its role from then on;
     * nothing is delivered until {@link #schedule} (or a test's {@link #doWork()}).
     */
    public DelayService(DelayLevels levels, MessageStore store, DelayOffsetTable offsets, TopicConfigTable topics,
                        Clock clock) {
        this.redirect = new DelayRedirect(levels);
        this.offsets = Objects.requireNonNull(offsets, "offsets");
        this.clock = Objects.requireNonNull(clock, "clock");
        List<DelayDeliveryAgent> built = new ArrayList<>(levels.count());
        for (int level = 1; level <= levels.count(); level++) {
            built.add(new DelayDeliveryAgent(level, levels, store, offsets, clock));
        }
        this.agents = List.copyOf(built);
        sizeScheduleTopic(topics, levels.count());
        store.addRoleListener(this::followRole);
        followRole(store.role());
        LOG.info("{} delay levels ({})", levels.count(), levels);
    }

    /**
     * Steps the agents on {@code scheduler} (not owned) until {@link #close()}: again when the earliest
     * queued message is due, at most {@link #PERIOD_MILLIS} later.
     */
    public synchronized DelayService schedule(ScheduledExecutorService scheduler) {
        if (this.scheduler == null && !closed) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            task = scheduler.schedule(this::step, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    private void step() {
        long wait = PERIOD_MILLIS;
        try {
            doWork();
            long next = Long.MAX_VALUE;
            for (DelayDeliveryAgent agent : agents) {
                next = Math.min(next, agent.nextWorkMillis());
            }
            wait = Math.max(1, Math.min(PERIOD_MILLIS, next == Long.MAX_VALUE ? PERIOD_MILLIS : next - clock.millis()));
        } finally {
            synchronized (this) {
                if (!closed) {
                    try {
                        task = scheduler.schedule(this::step, wait, TimeUnit.MILLISECONDS);
                    } catch (RejectedExecutionException e) {
                        LOG.warn("delay levels stop: the scheduler is shut down");
                    }
                }
            }
        }
    }

    private static void sizeScheduleTopic(TopicConfigTable topics, int levels) {
        TopicConfig current = topics.get(DelayLevels.SCHEDULE_TOPIC).orElse(null);
        if (current == null || current.readQueueNums() != levels || current.writeQueueNums() != levels) {
            topics.upsert(TopicConfig.of(DelayLevels.SCHEDULE_TOPIC, levels,
                    current == null ? Perm.READ_WRITE : current.perm()));
        }
    }

    private void followRole(RoleState role) {
        for (DelayDeliveryAgent agent : agents) {
            if (role.master()) {
                agent.start();
            } else {
                agent.stop();
            }
        }
    }

    /** Where sends and retries store a message with a delay level. */
    public DelayRedirect redirect() {
        return redirect;
    }

    /** The agents, by level (index 0 is level 1). */
    public List<DelayDeliveryAgent> agents() {
        return agents;
    }

    /** Steps every agent once; returns the entries delivered or skipped. */
    public int doWork() {
        int done = 0;
        for (DelayDeliveryAgent agent : agents) {
            try {
                done += agent.doWork();
            } catch (RuntimeException e) {
                LOG.error("delay level {} failed a step; it tries again in {} ms", agent.level(), PERIOD_MILLIS, e);
            }
        }
        return done;
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            if (task != null) {
                task.cancel(false);
            }
        }
        agents.forEach(DelayDeliveryAgent::stop);
        offsets.persist();
    }
}
