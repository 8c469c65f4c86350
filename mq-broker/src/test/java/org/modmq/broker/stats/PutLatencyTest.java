package org.modmq.broker.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PutLatencyTest {

    @Test
    void countsTheMinuteInProgressAndReportsTheLastCompleteOne() {
        PutLatency latency = new PutLatency();
        latency.record(0, true);
        latency.record(9, true);
        latency.record(10, true);
        latency.record(10_000, false);
        // nothing is reported before the first minute ends
        assertThat(latency.distributionText()).startsWith("[<=0ms]:0 [0~10ms]:0 ");
        assertThat(latency.percentileText(0.99)).isEqualTo("0.00");

        latency.roll();
        assertThat(latency.distributionText()).isEqualTo("[<=0ms]:1 [0~10ms]:1 [10~50ms]:1 [50~100ms]:0 "
                + "[100~200ms]:0 [200~500ms]:0 [500ms~1s]:0 [1~2s]:0 [2~3s]:0 [3~4s]:0 [4~5s]:0 [5~10s]:0 [10s~]:1 ");
        assertThat(latency.longestMillis()).isEqualTo(10_000);
        assertThat(latency.failedTimes()).isEqualTo(1);
        // rank 3 of 4 is the third put: the top of the 10~50 ms range
        assertThat(latency.percentileText(0.99)).isEqualTo("50.00");
        assertThat(latency.percentile(0.5)).isBetween(1.0, 10.0);

        latency.roll();
        assertThat(latency.distributionText()).startsWith("[<=0ms]:0 [0~10ms]:0 [10~50ms]:0 ");
        assertThat(latency.longestMillis()).isEqualTo(10_000);
    }

    @Test
    void negativeTimesCountAsZero() {
        PutLatency latency = new PutLatency();
        latency.record(-5, true);
        latency.roll();
        assertThat(latency.distributionText()).startsWith("[<=0ms]:1 ");
        assertThat(latency.longestMillis()).isZero();
    }
}
