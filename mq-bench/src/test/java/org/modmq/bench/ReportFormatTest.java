package org.modmq.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ReportFormatTest {

    private static BenchReport sample() {
        Histogram micros = new Histogram(LoadMeter.HIGHEST_TRACKABLE_MICROS, 3);
        for (int i = 1; i <= 1000; i++) {
            micros.recordValue(i * 10L);
        }
        return new BenchReport("produce-sync", 20_000, 2.0, 20_000L * 1024, 3,
                LatencySummary.of("send", micros), Map.of("threads", "16", "topic", "bench \"x\""));
    }

    @Test
    void computesRatesFromTheMeasuredWindow() {
        BenchReport report = sample();

        assertThat(report.messagesPerSecond()).isEqualTo(10_000.0);
        assertThat(report.mebibytesPerSecond()).isEqualTo(20_000.0 * 1024 / 2.0 / (1024 * 1024));
        assertThat(report.latency().p50Ms()).isBetween(4.99, 5.01);
        assertThat(report.latency().p99Ms()).isBetween(9.89, 9.91);
        assertThat(report.latency().maxMs()).isBetween(9.99, 10.01);
    }

    @Test
    void printsOneKeyValueLine() {
        String line = ReportFormat.KV.format(sample());

        assertThat(line.lines()).hasSize(1);
        assertThat(line).startsWith("workload=produce-sync messages=20000 seconds=2.000 msgs_per_sec=10000.0 ")
                .contains(" errors=3 latency_kind=send latency_samples=1000 p50_ms=5.003 ")
                .contains(" threads=16 ")
                .contains(" topic=bench_\"x\"");
    }

    @Test
    void printsOneJsonLineWithNumbersUnquoted() {
        String line = ReportFormat.JSON.format(sample());

        assertThat(line.lines()).hasSize(1);
        assertThat(line.strip()).startsWith("{\"workload\":\"produce-sync\",\"messages\":20000,\"seconds\":2.000,")
                .contains("\"msgs_per_sec\":10000.0").contains("\"threads\":16")
                .contains("\"topic\":\"bench \\\"x\\\"\"").endsWith("}");
    }

    @Test
    void printsReadableText() {
        String text = ReportFormat.TEXT.format(sample());

        assertThat(text).contains("== produce-sync ==").contains("10000.0 msgs/s")
                .contains("p50 5.003 ms").contains("(1000 samples)").contains("threads    16");
    }

    @Test
    void leavesLatencyOutWhenNotMeasured() {
        BenchReport report = new BenchReport("consume-lite", 10, 0.0, 10, 0, null, null);

        assertThat(ReportFormat.KV.format(report)).doesNotContain("p50_ms").contains("msgs_per_sec=0.0");
        assertThat(ReportFormat.TEXT.format(report)).doesNotContain("latency");
    }

    @Test
    void usesDotDecimalsWhateverTheLocale() {
        Locale saved = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            assertThat(ReportFormat.KV.format(sample())).contains("seconds=2.000");
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void meterCountsOnlyTheMeasuredWindow() {
        LoadMeter meter = new LoadMeter();
        meter.success(5, 500, 100);
        meter.error();
        meter.beginMeasuring();
        meter.success(2, 200, 1000);
        meter.error();
        meter.endMeasuring();
        meter.success(7, 700, 10);

        BenchReport report = BenchReport.of("w", meter, "send", Map.of());

        assertThat(meter.totalMessages()).isEqualTo(14);
        assertThat(meter.totalErrors()).isEqualTo(2);
        assertThat(report.messages()).isEqualTo(2);
        assertThat(report.bytes()).isEqualTo(200);
        assertThat(report.errors()).isEqualTo(1);
        assertThat(report.latency().samples()).isEqualTo(1);
        assertThat(report.latency().p50Ms()).isBetween(0.99, 1.01);
    }
}
