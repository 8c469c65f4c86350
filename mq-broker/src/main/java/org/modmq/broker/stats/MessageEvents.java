package org.modmq.broker.stats;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.modmq.api.spi.MetricsSink;

/**
 * RocketMQ 5's figures of what happens to messages after they were sent, with its names and labels
 * ({@code BrokerMetricsConstant}, {@code DefaultStoreMetricsConstant}): messages sent to a DLQ,
 * transactions committed and rolled back and the half messages still open, timers enqueued into the
 * wheel, dequeued from it and still timing. Counted since the broker started: the two gauges start at 0
 * after a restart (RocketMQ keeps them in a file) and never go below 0. Thread-safe; lock-free.
 */
public final class MessageEvents {

    private final Map<List<String>, LongAdder> dlq = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> commits = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> rollbacks = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> halves = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> timerIn = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> timerOut = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> timing = new ConcurrentHashMap<>();

    /** Registers the families with {@code sink}, read from these counts when scraped. */
    public void register(MetricsSink sink) {
        sink.counterCallback("rocketmq_send_to_dlq_messages_total", "Messages a consumer group sent to its DLQ",
                out -> dlq.forEach((labels, count) -> out.sample(count.sum(), labels.get(0), labels.get(1),
                        labels.get(2))), "consumer_group", "topic", "is_system");
        sink.counterCallback("rocketmq_commit_messages_total", "Transactions committed",
                out -> commits.forEach((topic, count) -> out.sample(count.sum(), topic)), "topic");
        sink.counterCallback("rocketmq_rollback_messages_total", "Transactions rolled back",
                out -> rollbacks.forEach((topic, count) -> out.sample(count.sum(), topic)), "topic");
        sink.gaugeCallback("rocketmq_half_messages", "Half messages stored and not yet ended, since start",
                out -> halves.forEach((topic, count) -> out.sample(Math.max(0, count.get()), topic)), "topic");
        sink.counterCallback("rocketmq_timer_enqueue_total", "Timer messages enqueued into the timer wheel",
                out -> timerIn.forEach((topic, count) -> out.sample(count.sum(), topic)), "topic");
        sink.counterCallback("rocketmq_timer_dequeue_total", "Timer messages dequeued into their real topic",
                out -> timerOut.forEach((topic, count) -> out.sample(count.sum(), topic)), "topic");
        sink.gaugeCallback("rocketmq_timing_messages", "Timer messages enqueued and not yet dequeued, since start",
                out -> timing.forEach((topic, count) -> out.sample(Math.max(0, count.get()), topic)), "topic");
    }

    /** A message of {@code group} consumed from {@code topic} (its original topic) was stored into the DLQ. */
    public void sentToDlq(String group, String topic) {
        String system = Boolean.toString(TrafficCounters.isSystemTopic(topic) || TrafficCounters.isSystemGroup(group));
        dlq.computeIfAbsent(List.of(group, topic, system), k -> new LongAdder()).increment();
    }

    /** A prepared message for {@code topic} was stored as its half message. */
    public void halfStored(String topic) {
        halves.computeIfAbsent(key(topic), k -> new AtomicLong()).incrementAndGet();
    }

    /** The transaction of a half message for {@code topic} was committed. */
    public void committed(String topic) {
        commits.computeIfAbsent(key(topic), k -> new LongAdder()).increment();
        halfEnded(topic);
    }

    /** The transaction of a half message for {@code topic} was rolled back. */
    public void rolledBack(String topic) {
        rollbacks.computeIfAbsent(key(topic), k -> new LongAdder()).increment();
        halfEnded(topic);
    }

    /** A half message for {@code topic} was discarded by the check-back (no answer after transactionCheckMax). */
    public void halfEnded(String topic) {
        halves.computeIfAbsent(key(topic), k -> new AtomicLong()).decrementAndGet();
    }

    /** A timer message for {@code topic} was enqueued into the wheel (or found due at once). */
    public void timerEnqueued(String topic) {
        String real = key(topic);
        timerIn.computeIfAbsent(real, k -> new LongAdder()).increment();
        timing.computeIfAbsent(real, k -> new AtomicLong()).incrementAndGet();
    }

    /** A timer message was stored into its real topic {@code topic}. */
    public void timerDequeued(String topic) {
        String real = key(topic);
        timerOut.computeIfAbsent(real, k -> new LongAdder()).increment();
        timing.computeIfAbsent(real, k -> new AtomicLong()).decrementAndGet();
    }

    /** Messages of {@code group} from {@code topic} stored into the DLQ so far. */
    public long sentToDlq(String group, String topic, boolean system) {
        LongAdder count = dlq.get(List.of(group, topic, Boolean.toString(system)));
        return count == null ? 0 : count.sum();
    }

    /** Transactions of {@code topic} committed so far. */
    public long commits(String topic) {
        return sum(commits, topic);
    }

    /** Transactions of {@code topic} rolled back so far. */
    public long rollbacks(String topic) {
        return sum(rollbacks, topic);
    }

    /** Half messages of {@code topic} stored since start and not ended. */
    public long halfMessages(String topic) {
        AtomicLong count = halves.get(topic);
        return count == null ? 0 : Math.max(0, count.get());
    }

    /** Timers of {@code topic} enqueued into the wheel so far. */
    public long timersEnqueued(String topic) {
        return sum(timerIn, topic);
    }

    /** Timers stored into {@code topic} from the wheel so far. */
    public long timersDequeued(String topic) {
        return sum(timerOut, topic);
    }

    private static long sum(Map<String, LongAdder> counts, String topic) {
        LongAdder count = counts.get(topic);
        return count == null ? 0 : count.sum();
    }

    private static String key(String topic) {
        return Objects.requireNonNullElse(topic, "");
    }
}
