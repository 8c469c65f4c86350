package org.modmq.broker.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.modmq.testkit.ManualClock;

class BrokerStatsTest {

    private static final long MIDNIGHT = Instant.parse("2024-05-02T00:00:00Z").toEpochMilli();

    @Test
    void computesMovingWindowRatesFromOneSecondSamples() {
        ManualClock clock = new ManualClock(MIDNIGHT + 3_600_000);
        BrokerStats stats = new BrokerStats(clock);
        stats.sample();
        // 100 messages per second for 60 s, then 10 s of silence.
        for (int second = 0; second < 60; second++) {
            stats.recordPut("T", 100, 1_000);
            clock.advance(Duration.ofSeconds(1));
            stats.sample();
        }
        assertThat(stats.putTps().tenSeconds()).isCloseTo(100, within(0.01));
        assertThat(stats.putTps().oneMinute()).isCloseTo(100, within(0.01));
        for (int second = 0; second < 10; second++) {
            clock.advance(Duration.ofSeconds(1));
            stats.sample();
        }
        assertThat(stats.putTps().tenSeconds()).isZero();
        assertThat(stats.putTps().oneMinute()).isCloseTo(5_000 / 60.0, within(0.01));
        // The 10-minute window is cut short by the history: 6000 messages over 70 s.
        assertThat(stats.putTps().tenMinutes()).isCloseTo(6_000 / 70.0, within(0.01));
        assertThat(stats.putTps().text()).isEqualTo("0.00 83.33 85.71");
        assertThat(stats.topicPutTps("T")).isCloseTo(5_000 / 60.0, within(0.01));
        assertThat(stats.topicPutTps("Other")).isZero();
        assertThat(stats.putMessagesTotal()).isEqualTo(6_000);
        assertThat(stats.putBytesTotal()).isEqualTo(60_000);
        assertThat(stats.putRequestsTotal()).isEqualTo(60);
    }

    @Test
    void ratesAreZeroBeforeTwoSamples() {
        BrokerStats stats = new BrokerStats(new ManualClock(MIDNIGHT));
        stats.recordPut("T", 5, 5);
        assertThat(stats.putTps().text()).isEqualTo("0.00 0.00 0.00");
        stats.sample();
        assertThat(stats.putTps().text()).isEqualTo("0.00 0.00 0.00");
    }

    @Test
    void rollsDailyTotalsAtMidnight() {
        ManualClock clock = new ManualClock(MIDNIGHT - 60_000);
        BrokerStats stats = new BrokerStats(clock);
        stats.recordPut("T", 7, 70);
        stats.recordGet("g", "T", 0, 3, 3);
        stats.sample();
        assertThat(stats.putDaily()).isEqualTo(new BrokerStats.DailyTotals(0, 0, 7));
        clock.advance(Duration.ofMinutes(2));
        stats.recordPut("T", 1, 10);
        stats.sample();
        assertThat(stats.putDaily()).isEqualTo(new BrokerStats.DailyTotals(0, 7, 8));
        assertThat(stats.getDaily()).isEqualTo(new BrokerStats.DailyTotals(0, 3, 3));
        clock.advance(Duration.ofDays(1));
        stats.sample();
        assertThat(stats.putDaily()).isEqualTo(new BrokerStats.DailyTotals(7, 8, 8));
    }

    @Test
    void remembersTheLastPullOffsetAndCountsHitsAndMisses() {
        ManualClock clock = new ManualClock(MIDNIGHT);
        BrokerStats stats = new BrokerStats(clock);
        stats.sample();
        stats.recordGet("g", "T", 1, 32, 32);
        stats.recordGetMiss("g", "T", 1, 32);
        stats.recordGetMiss("g", "T", 2, 0);
        clock.advance(Duration.ofSeconds(1));
        stats.sample();
        assertThat(stats.pullOffset("g", "T", 1)).hasValue(32);
        assertThat(stats.pullOffset("g", "T", 2)).hasValue(0);
        assertThat(stats.pullOffset("g", "T", 3)).isEmpty();
        assertThat(stats.getTransferredTotal()).isEqualTo(32);
        assertThat(stats.getTransferredTps().tenSeconds()).isCloseTo(32, within(0.01));
        assertThat(stats.getFoundTps().tenSeconds()).isCloseTo(1, within(0.01));
        assertThat(stats.getMissTps().tenSeconds()).isCloseTo(2, within(0.01));
        assertThat(stats.getTotalTps().tenSeconds()).isCloseTo(3, within(0.01));
        assertThat(stats.groupGetTps("g", "T")).isCloseTo(32, within(0.01));
    }
}
