package org.modmq.broker.metrics;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.modmq.api.spi.MetricsSink;
import org.modmq.broker.client.ConsumerGroupView;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.modmq.broker.metadata.TopicValidator;
import org.modmq.broker.runtime.BrokerRuntime;
import org.modmq.broker.runtime.QueueStatsSource;
import org.modmq.broker.stats.TrafficCounters;

/**
 * Consumer progress as gauges, computed when scraped the way {@code consumerProgress} computes it: per
 * group and queue, lag = the queue's max offset − the committed offset; in flight = pulled − committed;
 * ready = max − pulled; the lag and queueing latencies are the age of the first message not committed
 * and not pulled. Groups counted are those with a committed offset and the live groups' subscribed
 * topics (a queue without a commit counts from 0). RocketMQ's {@code rocketmq_consumer_*} figures are per
 * topic and group; modmq's {@code modmq_consumer_queue_lag_messages} per queue.
 *
 * <p>One computation serves every family of a scrape: it is kept for {@link #REUSE_MILLIS}. Thread-safe.
 */
public final class ConsumerLagGauges {

    /** How long one computation is reused, so that the six families of one scrape share it. */
    static final long REUSE_MILLIS = 500;
    private static final char SEPARATOR = '@';

    /** One group's progress on one queue; latencies in ms. */
    record QueueLag(String topic, String group, int queueId, long lag, long inflight, long ready,
                    long lagLatency, long queueingLatency) {
    }

    private final BrokerRuntime runtime;
    private final QueueStatsSource queues;
    private final Clock clock;
    private final Object lock = new Object();
    private long computedAt = Long.MIN_VALUE;
    private List<QueueLag> last = List.of();

    public ConsumerLagGauges(BrokerRuntime runtime, QueueStatsSource queues) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.queues = Objects.requireNonNull(queues, "queues");
        this.clock = runtime.clock();
    }

    /** Registers the consumer figures with {@code sink}. */
    public void register(MetricsSink sink) {
        String[] labels = {"topic", "consumer_group", "is_retry", "is_system"};
        sink.gaugeCallback("rocketmq_consumer_lag_messages", "Messages not yet committed by the group",
                out -> perTopic(out, QueueLag::lag, false), labels);
        sink.gaugeCallback("rocketmq_consumer_lag_latency", "Age of the group's oldest uncommitted message (ms)",
                out -> perTopic(out, QueueLag::lagLatency, true), labels);
        sink.gaugeCallback("rocketmq_consumer_inflight_messages", "Messages pulled but not yet committed",
                out -> perTopic(out, QueueLag::inflight, false), labels);
        sink.gaugeCallback("rocketmq_consumer_queueing_latency", "Age of the group's oldest message not pulled (ms)",
                out -> perTopic(out, QueueLag::queueingLatency, true), labels);
        sink.gaugeCallback("rocketmq_consumer_ready_messages", "Messages stored but not yet pulled by the group",
                out -> perTopic(out, QueueLag::ready, false), labels);
        sink.gaugeCallback("modmq_consumer_queue_lag_messages",
                "Per queue: the queue's max offset minus the group's committed offset",
                out -> snapshot().forEach(q -> out.sample(q.lag(), q.topic(), Integer.toString(q.queueId()),
                        q.group())), "topic", "queue", "consumer_group");
    }

    private interface Figure {
        long of(QueueLag lag);
    }

    private void perTopic(MetricsSink.Samples out, Figure figure, boolean max) {
        Map<String, long[]> totals = new TreeMap<>();
        Map<String, String[]> names = new TreeMap<>();
        for (QueueLag q : snapshot()) {
            String key = q.topic() + SEPARATOR + q.group();
            long[] total = totals.computeIfAbsent(key, k -> new long[1]);
            long value = figure.of(q);
            total[0] = max ? Math.max(total[0], value) : total[0] + value;
            names.putIfAbsent(key, new String[] {q.topic(), q.group()});
        }
        totals.forEach((key, total) -> {
            String topic = names.get(key)[0];
            String group = names.get(key)[1];
            out.sample(total[0], topic, group, Boolean.toString(TopicValidator.isRetryTopic(topic)),
                    Boolean.toString(TrafficCounters.isSystemTopic(topic) || TrafficCounters.isSystemGroup(group)));
        });
    }

    /** The progress of every counted group on every queue, reused for {@link #REUSE_MILLIS}. */
    List<QueueLag> snapshot() {
        synchronized (lock) {
            long now = clock.millis();
            if (computedAt == Long.MIN_VALUE || now - computedAt >= REUSE_MILLIS || now < computedAt) {
                last = compute(now);
                computedAt = now;
            }
            return last;
        }
    }

    private List<QueueLag> compute(long now) {
        Map<String, Map<Integer, Long>> committed = new TreeMap<>(
                runtime.metadata().consumerOffsets().wrapper().offsetTable());
        for (ConsumerGroupView group : runtime.consumers().groups()) {
            if (group.isBroadcasting()) {
                continue;
            }
            for (String topic : group.subscriptions().keySet()) {
                committed.putIfAbsent(topic + SEPARATOR + group.groupName(), Map.of());
            }
        }
        List<QueueLag> lags = new ArrayList<>();
        committed.forEach((key, offsets) -> {
            int at = key.lastIndexOf(SEPARATOR);
            if (at <= 0) {
                return;
            }
            String topic = key.substring(0, at);
            String group = key.substring(at + 1);
            Optional<TopicConfig> config = runtime.metadata().topics().get(topic);
            if (config.isEmpty()) {
                return;
            }
            for (int queueId = 0; queueId < config.get().readQueueNums(); queueId++) {
                lags.add(queueLag(topic, group, queueId, offsets.getOrDefault(queueId, 0L), now));
            }
        });
        return List.copyOf(lags);
    }

    private QueueLag queueLag(String topic, String group, int queueId, long commit, long now) {
        long max = Math.max(0, queues.maxOffset(topic, queueId));
        long committedOffset = Math.max(Math.max(0, commit), Math.min(max, queues.minOffset(topic, queueId)));
        long pulled = Math.min(max, Math.max(committedOffset,
                runtime.stats().pullOffset(group, topic, queueId).orElse(0)));
        long lag = Math.max(0, max - committedOffset);
        long ready = Math.max(0, max - pulled);
        return new QueueLag(topic, group, queueId, lag, Math.max(0, pulled - committedOffset), ready,
                lag == 0 ? 0 : age(topic, queueId, committedOffset, now),
                ready == 0 ? 0 : age(topic, queueId, pulled, now));
    }

    private long age(String topic, int queueId, long offset, long now) {
        long stored = queues.storeTimestamp(topic, queueId, offset);
        return stored <= 0 ? 0 : Math.max(0, now - stored);
    }
}
