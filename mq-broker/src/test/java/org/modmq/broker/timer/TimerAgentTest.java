package org.modmq.broker.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.message.BrokerMessage;
import org.modmq.broker.config.TimerConfig;
import org.modmq.broker.stats.MessageEvents;
import org.modmq.testkit.ManualClock;

class TimerAgentTest {

    private static final long START = 1_700_000_000_050L;
    private static final long STEP_MS = 10;

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(START);
    private final FakeTimerAccess access = new FakeTimerAccess();
    /** Body → the time it was asked for. */
    private final Map<String, Long> asked = new HashMap<>();
    /** Body → when it was delivered, per delivery. */
    private final Map<String, List<Long>> deliveredAt = new HashMap<>();
    private final List<TimerAgent> agents = new ArrayList<>();
    private final MessageEvents events = new MessageEvents();
    private TimerConfig config = new TimerConfig(true, 259_200, 100, 500, false, false);
    private TimerAgent agent;
    /** Agents stepped besides {@link #agent} (other brokers of the set). */
    private final List<TimerAgent> others = new ArrayList<>();

    @AfterEach
    void close() {
        agents.forEach(TimerAgent::close);
    }

    private TimerAgent open(int slots, int precisionMs, int segmentRecords) {
        return open(access, dir.resolve("timer"), slots, precisionMs, segmentRecords);
    }

    private TimerAgent open(FakeTimerAccess view, Path timerDir, int slots, int precisionMs, int segmentRecords) {
        config = new TimerConfig(true, 259_200, precisionMs, 500, false, false);
        TimerAgent opened = new TimerAgent(view, new TimerIndex(timerDir, slots, precisionMs,
                segmentRecords), config, clock, timerDir.resolve("checkpoint"), events);
        agents.add(opened);
        agent = opened;
        return opened;
    }

    private void send(String body, long delayMs) {
        BrokerMessage message = TimerIntakeTest.message("Orders", 1, 0, "TIMER_DELAY_MS", Long.toString(delayMs),
                "UNIQ_KEY", body);
        message = new BrokerMessage(message.topic(), message.queueId(), 0, body.getBytes(), message.properties(),
                message.bornTimestamp(), message.bornHost(), message.storeHost(), 0, 0, 0);
        asked.put(body, clock.millis() + delayMs);
        access.store(new TimerIntake(config, clock).redirect(message), clock.millis());
    }

    /** Steps the clock by {@code ms} in 10 ms ticks, running the agent until idle at each tick. */
    private void run(long ms) {
        for (long t = 0; t < ms; t += STEP_MS) {
            clock.advance(Duration.ofMillis(STEP_MS));
            int delivered = access.delivered.size();
            for (int i = 0; i < 10_000 && agent.doWork() > 0; i++) {
                // until idle
            }
            for (TimerAgent other : others) {
                for (int i = 0; i < 10_000 && other.doWork() > 0; i++) {
                    // until idle
                }
            }
            for (BrokerMessage message : access.delivered.subList(delivered, access.delivered.size())) {
                deliveredAt.computeIfAbsent(new String(message.body()), k -> new ArrayList<>()).add(clock.millis());
            }
        }
    }

    /**
     * The first delivery of {@code body} came at or after its time and less than a slot plus a tick late;
     * none came early (a repeat after a crash comes when the agent catches up).
     */
    private void assertOnTime(String body, int precisionMs) {
        List<Long> times = deliveredAt.get(body);
        assertThat(times).as("deliveries of " + body).isNotEmpty();
        assertThat(times.get(0) - asked.get(body)).as("lateness of " + body).isBetween(0L, precisionMs + STEP_MS);
        assertThat(times).allSatisfy(at -> assertThat(at).isGreaterThanOrEqualTo(asked.get(body)));
    }

    @Test
    void deliversWhenTheSlotEndsNotBeforeWithTheOriginalProperties() {
        open(TimerRunner.SLOTS, 100, 1024);
        send("a", 3_000);
        run(2_990);
        assertThat(access.delivered).isEmpty();
        run(110);
        assertThat(access.deliveredBodies()).containsExactly("a");
        assertOnTime("a", 100);
        BrokerMessage delivered = access.delivered.get(0);
        assertThat(delivered.topic()).isEqualTo("Orders");
        assertThat(delivered.queueId()).isEqualTo(1);
        assertThat(delivered.propertyMap()).containsEntry("UNIQ_KEY", "a").containsEntry("TIMER_DELAY_MS", "3000")
                .containsEntry("TIMER_OUT_MS", "1700000003000").containsKeys("TIMER_ENQUEUE_MS", "TIMER_DEQUEUE_MS")
                .doesNotContainKeys("REAL_TOPIC", "REAL_QID");
        assertThat(agent.delivered()).isEqualTo(1);
        assertThat(events.timersEnqueued("Orders")).isEqualTo(1);
        assertThat(events.timersDequeued("Orders")).isEqualTo(1);
    }

    @Test
    void timersBeyondTheWindowRollAroundTheWheelAndArriveOnTime() {
        open(16, 100, 1024);
        send("soon", 450);
        send("wrap-1", 1_700);
        send("wrap-5", 8_000);
        send("same-slot-1", 8_060);
        send("same-slot-2", 8_070);
        send("far", 40_000);
        run(41_000);
        // Within one slot the order is not kept (the chain is read newest first).
        assertThat(access.deliveredBodies()).containsExactlyInAnyOrder("soon", "wrap-1", "wrap-5", "same-slot-1",
                "same-slot-2", "far");
        assertThat(access.deliveredBodies().subList(0, 3)).containsExactly("soon", "wrap-1", "wrap-5");
        asked.keySet().forEach(body -> assertOnTime(body, 100));
    }

    @Test
    void aTimerAlreadyDueWhenIndexedIsDeliveredAtOnce() {
        open(16, 100, 1024);
        send("late", 200);
        clock.advance(Duration.ofSeconds(5));
        agent.doWork();
        agent.doWork();
        assertThat(access.deliveredBodies()).containsExactly("late");
        assertThat(events.timersEnqueued("Orders")).as("counted as enqueued and dequeued at once").isEqualTo(1);
        assertThat(events.timersDequeued("Orders")).isEqualTo(1);
    }

    @Test
    void aCleanRestartKeepsPendingTimersAndDeliversEachOnce() {
        open(64, 100, 1024);
        send("x", 1_000);
        send("y", 5_000);
        run(2_000);
        agent.close();
        send("z", 500);
        open(64, 100, 1024);
        run(5_000);
        assertThat(access.deliveredBodies()).containsExactly("x", "z", "y");
        List.of("x", "y", "z").forEach(body -> assertOnTime(body, 100));
    }

    @Test
    void aCrashLosesNoTimerAndRedeliversOnlyWhatCameAfterTheCheckpoint() throws IOException {
        open(32, 100, 8);
        for (int i = 0; i < 40; i++) {
            send("t" + i, 100L * i + 30);
        }
        run(1_990);
        long checkpointed = agent.readMs();
        // kill -9: the agent is dropped without close, and the timer log's last write was torn.
        agents.remove(agent);
        Path lastSegment;
        try (Stream<Path> files = Files.list(dir.resolve("timer").resolve("log"))) {
            lastSegment = files.sorted().reduce((a, b) -> b).orElseThrow();
        }
        Files.write(lastSegment, new byte[] {1, 2, 3, 4, 5}, StandardOpenOption.APPEND);
        open(32, 100, 8);
        run(3_000);
        for (int i = 0; i < 40; i++) {
            assertOnTime("t" + i, 100);
        }
        // Deliveries before the last checkpoint (within 500 ms before the crash) are not repeated.
        deliveredAt.forEach((body, times) -> {
            if (times.size() > 1) {
                assertThat(asked.get(body)).isGreaterThan(checkpointed - 600);
            }
        });
        assertThat(deliveredAt.values().stream().filter(t -> t.size() > 1).count()).isLessThanOrEqualTo(7);
        assertThat(checkpointed).isGreaterThan(START + 1_800);
    }

    @Test
    void badRecordsAreSkippedAndTheRestIsDelivered() {
        open(64, 100, 1024);
        access.store(TimerIntakeTest.message(TimerProperties.TOPIC, 0, 0, "TAGS", "no-out-ms"), clock.millis());
        send("removed", 300);
        long removedAt = access.wheelQueue.get(1).commitLogOffset();
        BrokerMessage noQueue = TimerIntakeTest.message(TimerProperties.TOPIC, 0, 0, "TIMER_OUT_MS",
                Long.toString(START + 400), "REAL_TOPIC", "Orders", "REAL_QID", "x");
        access.store(noQueue, clock.millis());
        send("good", 600);
        run(100);
        access.log.remove(removedAt);
        run(1_000);
        assertThat(access.deliveredBodies()).containsExactly("good");
        assertThat(agent.skipped()).isEqualTo(3);
    }

    @Test
    void onlyAMasterDeliversAndAPromotionCatchesUp() {
        access.master = false;
        open(64, 100, 1024);
        send("held", 300);
        run(1_000);
        assertThat(access.delivered).isEmpty();
        assertThat(agent.state()).isEqualTo(TimerAgent.State.STANDBY);
        access.master = true;
        run(20);
        assertThat(access.deliveredBodies()).containsExactly("held");
        access.master = false;
        send("after-demotion", 100);
        run(500);
        assertThat(agent.state()).isEqualTo(TimerAgent.State.STANDBY);
        assertThat(access.deliveredBodies()).containsExactly("held");
    }

    @Test
    void aRefusedDeliveryIsRetried() {
        open(64, 100, 1024);
        send("r", 200);
        access.refuse = true;
        run(500);
        assertThat(access.delivered).isEmpty();
        access.refuse = false;
        run(200);
        assertThat(access.deliveredBodies()).containsExactly("r");
    }

    @Test
    void aNewPrecisionRebuildsTheLogAndKeepsTheTimers() {
        open(64, 100, 1024);
        send("p", 5_000);
        send("q", 20_000);
        run(1_000);
        agent.close();
        open(64, 200, 1024);
        run(20_000);
        assertThat(access.deliveredBodies()).containsExactly("p", "q");
        assertOnTime("p", 200);
        assertOnTime("q", 200);
    }

    @Test
    void deliveredLogSegmentsAreDeleted() throws IOException {
        open(64, 100, 4);
        for (int i = 0; i < 30; i++) {
            send("s" + i, 50L * i + 20);
        }
        run(3_000);
        assertThat(access.delivered).hasSize(30);
        try (Stream<Path> files = Files.list(dir.resolve("timer").resolve("log"))) {
            assertThat(files.count()).isLessThanOrEqualTo(2);
        }
    }

    @Test
    void aPromotedReplicaContinuesFromTheReplicatedProgressOfTheOldMaster() {
        FakeTimerAccess replicaView = new FakeTimerAccess(access);
        replicaView.master = false;
        TimerAgent replica = open(replicaView, dir.resolve("replica-timer"), 64, 100, 1024);
        TimerAgent master = open(64, 100, 1024);
        others.add(replica);
        for (int i = 0; i < 30; i++) {
            send("f" + i, 100L * i + 40);
        }
        run(2_000);
        assertThat(replica.state()).isEqualTo(TimerAgent.State.STANDBY);
        int deliveredByOldMaster = access.delivered.size();
        assertThat(deliveredByOldMaster).isBetween(15, 21);
        // The old master dies; the replica is promoted.
        access.master = false;
        replicaView.master = true;
        run(2_000);
        assertThat(master.state()).isEqualTo(TimerAgent.State.STANDBY);
        assertThat(replica.state()).isEqualTo(TimerAgent.State.ACTIVE);
        for (int i = 0; i < 30; i++) {
            assertThat(deliveredAt.get("f" + i)).as("f" + i).isNotEmpty();
        }
        // Only what the old master delivered after its last marker (checkpoints every 500 ms) comes again.
        long again = deliveredAt.values().stream().filter(times -> times.size() > 1).count();
        assertThat(again).isLessThanOrEqualTo(7);
        assertThat(access.delivered).hasSizeLessThanOrEqualTo(30 + 7);
    }

    @Test
    void anIdleRunnerParksUntilTheAwaitedSlotEnds() {
        open(64, 100, 1024);
        // Standby (before the first step sees the master role): parks longer, the runner is woken on promotion.
        assertThat(agent.idleMs(10)).isEqualTo(TimerAgent.STANDBY_IDLE_MS);
        agent.doWork();
        // Active at START + 0 (slot START - 50 ends at START + 50): park 50 ms at most 10.
        assertThat(agent.idleMs(10)).isEqualTo(10);
        assertThat(agent.idleMs(100)).isEqualTo(50);
        clock.advance(Duration.ofMillis(49));
        assertThat(agent.idleMs(100)).isEqualTo(1);
    }

    @Test
    void aMarkerWithBadNumbersIsNotProgress() {
        BrokerMessage bad = TimerIntakeTest.message(TimerProperties.TOPIC, 0, 0, "TAGS", TimerProperties.PROGRESS_TAG,
                TimerProperties.PROGRESS_READ_MS, "soon", TimerProperties.PROGRESS_QUEUE_OFFSET, "1");
        assertThat(TimerProgressMarker.progressOf(access.store(bad, START))).isEmpty();
        TimerCheckpoint progress = new TimerCheckpoint(0, 0, 12, START, 0);
        assertThat(TimerProgressMarker.progressOf(access.store(TimerProgressMarker.of(progress, START,
                access.storeHost()), START))).contains(progress);
    }

    @Test
    void anIdleAgentStopsWritingCheckpointsOnceItsWorkIsCovered() {
        open(64, 100, 1024);
        send("one", 200);
        run(1_500);
        Path file = dir.resolve("timer").resolve("checkpoint");
        TimerCheckpoint covered = TimerCheckpoint.read(file).orElseThrow();
        assertThat(covered.readMs()).isGreaterThan(START + 200);
        run(3_000);
        assertThat(TimerCheckpoint.read(file)).contains(covered);
    }
}
