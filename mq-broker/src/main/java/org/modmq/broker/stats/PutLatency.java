package org.modmq.broker.stats;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * How long puts took, from the store append to the answer (flush and replication waits included), in
 * the thirteen ranges a stock broker reports ({@code [<=0ms]} … {@code [10s~]}): counts for the minute
 * in progress and for the last complete minute ({@link #roll()} moves one to the other), the longest
 * put since boot and the failed puts. Percentiles are read from the last minute, interpolated inside a
 * range. Thread-safe; {@link #record} is lock-free.
 */
public final class PutLatency {

    /** Exclusive upper bound of each range, ms; the first range holds 0 ms, the last is open. */
    private static final long[] UPPER = {1, 10, 50, 100, 200, 500, 1_000, 2_000, 3_000, 4_000, 5_000, 10_000,
        Long.MAX_VALUE};
    private static final String[] LABELS = {"[<=0ms]", "[0~10ms]", "[10~50ms]", "[50~100ms]", "[100~200ms]",
        "[200~500ms]", "[500ms~1s]", "[1~2s]", "[2~3s]", "[3~4s]", "[4~5s]", "[5~10s]", "[10s~]"};

    private final AtomicReference<LongAdder[]> current = new AtomicReference<>(newRanges());
    private volatile long[] lastMinute = new long[UPPER.length];
    private final AtomicLong longest = new AtomicLong();
    private final LongAdder failed = new LongAdder();

    /** Counts one put that took {@code millis}; a put that stored nothing also counts as failed. */
    public void record(long millis, boolean stored) {
        long took = Math.max(0, millis);
        current.get()[range(took)].increment();
        longest.accumulateAndGet(took, Math::max);
        if (!stored) {
            failed.increment();
        }
    }

    /** Ends the minute in progress: its counts become the last minute's. */
    public void roll() {
        LongAdder[] ended = current.getAndSet(newRanges());
        long[] counts = new long[ended.length];
        for (int i = 0; i < ended.length; i++) {
            counts[i] = ended[i].sum();
        }
        lastMinute = counts;
    }

    /** The last minute's counts as a stock broker prints them: {@code "[<=0ms]:0 [0~10ms]:5 … "}. */
    public String distributionText() {
        long[] counts = lastMinute;
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < counts.length; i++) {
            text.append(LABELS[i]).append(':').append(counts[i]).append(' ');
        }
        return text.toString();
    }

    /** The {@code fraction} percentile of the last minute's puts, ms, formatted {@code "%.2f"}. */
    public String percentileText(double fraction) {
        return String.format(Locale.ROOT, "%.2f", percentile(fraction));
    }

    double percentile(double fraction) {
        long[] counts = lastMinute;
        long total = 0;
        for (long count : counts) {
            total += count;
        }
        long rank = (long) (total * fraction);
        long passed = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0 && rank <= passed + counts[i]) {
                // the 0 ms range has no width; the open range is read at its lower bound
                double low = i == 0 ? 0 : UPPER[i - 1];
                double high = i == 0 || i == UPPER.length - 1 ? low : UPPER[i];
                return low + (high - low) * (rank - passed) / counts[i];
            }
            passed += counts[i];
        }
        return 0;
    }

    /** The longest put since boot, ms. */
    public long longestMillis() {
        return longest.get();
    }

    public long failedTimes() {
        return failed.sum();
    }

    private static int range(long millis) {
        int i = 0;
        while (millis >= UPPER[i]) {
            i++;
        }
        return i;
    }

    private static LongAdder[] newRanges() {
        LongAdder[] ranges = new LongAdder[UPPER.length];
        for (int i = 0; i < ranges.length; i++) {
            ranges[i] = new LongAdder();
        }
        return ranges;
    }
}
