package org.modmq.broker.stats;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.MetricsSink;

/**
 * Traffic figures of one broker, fed by the send and pull paths and read by the admin processors:
 * totals and moving-window rates (10 s, 1 min, 10 min) of stored and delivered messages, per-topic
 * put rates, per-group get rates, the midnight totals behind {@code msgPutTotalTodayMorning} and
 * friends, and the last pull offset of every group on every queue (the {@code pullOffset} of
 * GET_CONSUME_STATS).
 *
 * <p>Rates come from samples taken by {@link #sample()} once per {@link #SAMPLE_PERIOD}
 * ({@link #startSampling} schedules that). Threading: every method is thread-safe; the record
 * methods are lock-free and cheap enough for the data path.
 */
public final class BrokerStats {

    /** How often {@link #sample()} is meant to run. */
    public static final Duration SAMPLE_PERIOD = Duration.ofSeconds(1);
    private static final int GLOBAL_SAMPLES = 601;
    private static final int KEYED_SAMPLES = 61;
    private static final long MINUTE = 60_000;

    private final Clock clock;
    private final long bootMillis;
    private final RateCounter putMessages = new RateCounter(GLOBAL_SAMPLES);
    private final RateCounter putBytes = new RateCounter(GLOBAL_SAMPLES);
    private final RateCounter putRequests = new RateCounter(GLOBAL_SAMPLES);
    private final RateCounter getTransferred = new RateCounter(GLOBAL_SAMPLES);
    private final RateCounter getFound = new RateCounter(GLOBAL_SAMPLES);
    private final RateCounter getMissed = new RateCounter(GLOBAL_SAMPLES);
    private final Map<String, RateCounter> topicPuts = new ConcurrentHashMap<>();
    private final Map<String, RateCounter> groupGets = new ConcurrentHashMap<>();
    private final Map<String, Map<Integer, Long>> pullOffsets = new ConcurrentHashMap<>();
    private final PutLatency putLatency = new PutLatency();
    private final TrafficCounters traffic;
    private final MessageEvents events = new MessageEvents();
    private final MetricsSink.Histogram sendLatency;
    private final MetricsSink.Histogram pullLatency;
    private final Object dayLock = new Object();
    private long latencyMinuteStart;
    private LocalDate day;
    private volatile DailyTotals putDaily = new DailyTotals(0, 0, 0);
    private volatile DailyTotals getDaily = new DailyTotals(0, 0, 0);

    /** Rates over the trailing 10 s, 1 min and 10 min, per second. */
    public record Tps(double tenSeconds, double oneMinute, double tenMinutes) {

        /** {@code "x y z"} with two decimals, as GET_BROKER_RUNTIME_INFO reports rates. */
        public String text() {
            return String.format(Locale.ROOT, "%.2f %.2f %.2f", tenSeconds, oneMinute, tenMinutes);
        }
    }

    /**
     * Totals at the two last midnights (in the clock's zone) and now; the counters start at 0 on boot.
     *
     * @param yesterdayMorning total at the midnight before last
     * @param todayMorning total at the last midnight
     * @param now total now
     */
    public record DailyTotals(long yesterdayMorning, long todayMorning, long now) {
    }

    /** Latency buckets in seconds, 0.5 ms to 10 s. */
    public static final double[] LATENCY_BUCKETS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
        1, 2.5, 5, 10};

    /** @param clock wall clock; its zone decides where midnight is */
    public BrokerStats(Clock clock) {
        this(clock, MetricsSink.NOOP);
    }

    /**
     * @param clock wall clock; its zone decides where midnight is
     * @param sink where the data path's histograms are observed ({@link TrafficCounters#register} adds the counters)
     */
    public BrokerStats(Clock clock, MetricsSink sink) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.bootMillis = clock.millis();
        this.latencyMinuteStart = bootMillis;
        this.traffic = new TrafficCounters(sink);
        this.sendLatency = sink.histogram("modmq_send_latency_seconds",
                "Time from a send's decoding to its store answer (flush and replication included)",
                LATENCY_BUCKETS).labels();
        this.pullLatency = sink.histogram("modmq_pull_latency_seconds",
                "Time a pull takes to read its messages from the store (long-polling holds excluded)",
                LATENCY_BUCKETS).labels();
    }

    /** DLQ, transaction and timer counts ({@link MessageEvents#register} adds their families). */
    public MessageEvents events() {
        return events;
    }

    /** The per-topic and per-group traffic counts. */
    public TrafficCounters traffic() {
        return traffic;
    }

    /**
     * Counts one successful put (a single message or a batch).
     *
     * @param topic the topic stored to
     * @param messages messages stored, at least 1 for a batch
     * @param bytes body bytes stored
     */
    public void recordPut(String topic, int messages, long bytes) {
        recordPut(topic, TrafficCounters.MessageType.NORMAL, messages, bytes);
    }

    /** Counts one successful put of messages of {@code type} (see {@link #recordPut(String, int, long)}). */
    public void recordPut(String topic, TrafficCounters.MessageType type, int messages, long bytes) {
        traffic.stored(topic, type, messages, bytes);
        putRequests.add(1);
        putMessages.add(messages);
        putBytes.add(bytes);
        topicPuts.computeIfAbsent(Objects.requireNonNull(topic, "topic"), t -> newKeyedCounter())
                .add(messages);
    }

    /** Counts the time one put took (see {@link PutLatency}), stored or not. */
    public void recordPutTime(long millis, boolean stored) {
        putLatency.record(millis, stored);
    }

    /** Counts the time one put took, in ns, here and in {@code modmq_send_latency_seconds}. */
    public void recordPutNanos(long nanos, boolean stored) {
        putLatency.record(nanos / 1_000_000, stored);
        sendLatency.observe(nanos / 1e9);
    }

    /** Observes the time one pull took to read the store, in ns ({@code modmq_pull_latency_seconds}). */
    public void recordPullNanos(long nanos) {
        pullLatency.observe(nanos / 1e9);
    }

    /** Put times: the last minute's distribution, the longest, the failures. */
    public PutLatency putLatency() {
        return putLatency;
    }

    /**
     * Counts one pull that found messages and remembers where the group will pull next.
     *
     * @param messages messages delivered
     * @param nextBeginOffset the queue offset the group will pull from next
     */
    public void recordGet(String group, String topic, int queueId, int messages, long nextBeginOffset) {
        recordGet(group, topic, queueId, messages, 0, nextBeginOffset);
    }

    /** As {@link #recordGet(String, String, int, int, long)}, with the stored bytes delivered. */
    public void recordGet(String group, String topic, int queueId, int messages, long bytes, long nextBeginOffset) {
        traffic.delivered(topic, group, messages, bytes);
        getFound.add(1);
        getTransferred.add(messages);
        groupGets.computeIfAbsent(key(topic, group), k -> newKeyedCounter()).add(messages);
        rememberPull(group, topic, queueId, nextBeginOffset);
    }

    /** Counts one pull that found nothing (no new message, offset moved, …). */
    public void recordGetMiss(String group, String topic, int queueId, long nextBeginOffset) {
        getMissed.add(1);
        rememberPull(group, topic, queueId, nextBeginOffset);
    }

    /** Takes one sample of every counter and rolls the daily totals at midnight. */
    public void sample() {
        long now = clock.millis();
        for (RateCounter counter : new RateCounter[] {putMessages, putBytes, putRequests, getTransferred, getFound,
            getMissed}) {
            counter.sample(now);
        }
        topicPuts.values().forEach(c -> c.sample(now));
        groupGets.values().forEach(c -> c.sample(now));
        LocalDate today = LocalDate.ofInstant(clock.instant(), clock.getZone());
        synchronized (dayLock) {
            DailyTotals put = putDaily;
            DailyTotals get = getDaily;
            if (day != null && today.isAfter(day)) {
                put = new DailyTotals(put.todayMorning(), put.now(), put.now());
                get = new DailyTotals(get.todayMorning(), get.now(), get.now());
            }
            day = today;
            if (now - latencyMinuteStart >= MINUTE) {
                latencyMinuteStart = now;
                putLatency.roll();
            }
            putDaily = new DailyTotals(put.yesterdayMorning(), put.todayMorning(), putMessages.total());
            getDaily = new DailyTotals(get.yesterdayMorning(), get.todayMorning(), getTransferred.total());
        }
    }

    /**
     * Runs {@link #sample()} every {@link #SAMPLE_PERIOD} on {@code scheduler}.
     *
     * @return the schedule; cancelling it stops sampling
     */
    public ScheduledFuture<?> startSampling(ScheduledExecutorService scheduler) {
        long period = SAMPLE_PERIOD.toMillis();
        return scheduler.scheduleAtFixedRate(this::sample, period, period, TimeUnit.MILLISECONDS);
    }

    /** When this broker started counting, epoch ms. */
    public long bootTimestamp() {
        return bootMillis;
    }

    public Tps putTps() {
        return tps(putMessages);
    }

    public Tps getTransferredTps() {
        return tps(getTransferred);
    }

    public Tps getFoundTps() {
        return tps(getFound);
    }

    public Tps getMissTps() {
        return tps(getMissed);
    }

    /** Pull requests per second, found or not. */
    public Tps getTotalTps() {
        Tps found = getFoundTps();
        Tps missed = getMissTps();
        return new Tps(found.tenSeconds() + missed.tenSeconds(), found.oneMinute() + missed.oneMinute(),
                found.tenMinutes() + missed.tenMinutes());
    }

    public long putMessagesTotal() {
        return putMessages.total();
    }

    public long putBytesTotal() {
        return putBytes.total();
    }

    public long putRequestsTotal() {
        return putRequests.total();
    }

    /** Messages delivered to consumers since boot. */
    public long getTransferredTotal() {
        return getTransferred.total();
    }

    /** Stored-message totals at midnight; {@code now} as of the last sample. */
    public DailyTotals putDaily() {
        return putDaily;
    }

    /** Delivered-message totals at midnight; {@code now} as of the last sample. */
    public DailyTotals getDaily() {
        return getDaily;
    }

    /** Messages per second stored to {@code topic} over the last minute. */
    public double topicPutTps(String topic) {
        RateCounter counter = topicPuts.get(topic);
        return counter == null ? 0 : counter.perSecond(MINUTE);
    }

    /** Messages per second delivered to {@code group} from {@code topic} over the last minute. */
    public double groupGetTps(String group, String topic) {
        RateCounter counter = groupGets.get(key(topic, group));
        return counter == null ? 0 : counter.perSecond(MINUTE);
    }

    /** The offset {@code group} will pull next on that queue, as of its last pull on this broker. */
    public OptionalLong pullOffset(String group, String topic, int queueId) {
        Map<Integer, Long> queues = pullOffsets.get(key(topic, group));
        Long offset = queues == null ? null : queues.get(queueId);
        return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    private void rememberPull(String group, String topic, int queueId, long nextBeginOffset) {
        pullOffsets.computeIfAbsent(key(topic, group), k -> new ConcurrentHashMap<>()).put(queueId, nextBeginOffset);
    }

    /** A per-topic or per-group counter with a zero sample taken now, so its first rate has a baseline. */
    private RateCounter newKeyedCounter() {
        RateCounter counter = new RateCounter(KEYED_SAMPLES);
        counter.sample(clock.millis());
        return counter;
    }

    private static Tps tps(RateCounter counter) {
        return new Tps(counter.perSecond(10_000), counter.perSecond(MINUTE), counter.perSecond(10 * MINUTE));
    }

    private static String key(String topic, String group) {
        return Objects.requireNonNull(topic, "topic") + '@' + Objects.requireNonNull(group, "group");
    }
}
