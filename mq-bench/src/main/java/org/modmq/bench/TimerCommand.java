package org.modmq.bench;

import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code timer} workload: schedules {@code --count} timer messages ({@code Message#setDeliverTimeMs})
 * whose delivery times are spread evenly over {@code --window} seconds starting {@code --lead} seconds
 * from now, sent as fast as {@code --in-flight} allows (so most are pending at once), and consumes them in
 * the same process. Each body holds the asked delivery time (epoch ms, big-endian int64) and the timer's
 * index; lateness is receipt time minus asked time on this machine's wall clock (the broker must share it:
 * run both on one host). Reports lateness p50/p99/max, timers early (lateness below 0, counted as 0 in the
 * histogram), duplicates, lost, the broker's own lateness ({@code TIMER_DEQUEUE_MS} minus the asked time),
 * and with {@code --broker-pid} the broker's RSS (sampled every second).
 */
@Command(name = "timer", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Schedule N timer messages over a window, consume them, report lateness and broker RSS.")
final class TimerCommand implements Callable<Integer> {

    @Mixin
    CommonOptions common;

    @Option(names = {"-N", "--count"}, paramLabel = "N", defaultValue = "1000000",
            description = "Timers to schedule (default: ${DEFAULT-VALUE}).")
    int count;

    @Option(names = {"--window"}, paramLabel = "SECONDS", defaultValue = "600",
            description = "Delivery times are spread evenly over this many seconds (default: ${DEFAULT-VALUE}).")
    int windowSeconds;

    @Option(names = {"--lead"}, paramLabel = "SECONDS", defaultValue = "30",
            description = "The first delivery time is this far ahead of the start (default: ${DEFAULT-VALUE}).")
    int leadSeconds;

    @Option(names = {"--in-flight"}, paramLabel = "N", defaultValue = "1024",
            description = "Async sends in flight at most (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = {"--drain"}, paramLabel = "SECONDS", defaultValue = "60",
            description = "How long after the last delivery time to wait for stragglers (default: ${DEFAULT-VALUE}).")
    int drainSeconds;

    @Option(names = {"--broker-pid"}, paramLabel = "PID", defaultValue = "-1",
            description = "Local broker process whose RSS to report (default: none).")
    long brokerPid;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String error = common.validate();
        if (error == null && (count < 1 || windowSeconds < 1 || leadSeconds < 1 || inFlight < 1 || drainSeconds < 0)) {
            error = "--count, --window, --lead and --in-flight must be at least 1, --drain at least 0";
        }
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
        String workload = "timer";
        String topic = common.topicFor(workload);
        BenchClients clients = new BenchClients(common);
        LoadMeter meter = new LoadMeter();
        BitSet seen = new BitSet(count);
        LongAdder duplicates = new LongAdder();
        LongAdder early = new LongAdder();
        AtomicLong sendErrors = new AtomicLong();
        // The broker's own lateness: TIMER_DEQUEUE_MS (when it stored the timer into the topic) minus the asked time.
        Histogram brokerLateness = new Histogram(LoadMeter.HIGHEST_TRACKABLE_MICROS, 3);
        BrokerRss rss = new BrokerRss(brokerPid);
        rss.sampleKib();
        DefaultMQProducer producer = clients.producer(workload);
        producer.start();
        DefaultMQPushConsumer consumer = null;
        long sent = 0;
        try (ProgressAgent progress = new ProgressAgent(spec.commandLine().getErr(), workload,
                meter::totalMessages, sendErrors::get, common.quiet)) {
            BenchClients.sendUntilStored(producer, topic, 60_000);
            consumer = clients.pushConsumer(workload, topic);
            consumer.registerMessageListener((MessageListenerConcurrently) (batch, context) -> {
                long now = System.currentTimeMillis();
                for (MessageExt message : batch) {
                    byte[] body = message.getBody();
                    if (body == null || body.length < 16) {
                        continue;
                    }
                    ByteBuffer fields = ByteBuffer.wrap(body);
                    long askedMs = fields.getLong();
                    int index = (int) fields.getLong();
                    boolean first;
                    synchronized (seen) {
                        first = index >= 0 && index < count && !seen.get(index);
                        if (first) {
                            seen.set(index);
                        }
                    }
                    if (!first) {
                        duplicates.increment();
                        continue;
                    }
                    String dequeued = message.getProperty("TIMER_DEQUEUE_MS");
                    if (dequeued != null) {
                        synchronized (brokerLateness) {
                            brokerLateness.recordValue(Math.min(LoadMeter.HIGHEST_TRACKABLE_MICROS,
                                    Math.max(0, Long.parseLong(dequeued) - askedMs) * 1000));
                        }
                    }
                    long latenessMs = now - askedMs;
                    if (latenessMs < 0) {
                        early.increment();
                    }
                    meter.success(1, body.length, Math.max(0, latenessMs) * 1000);
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            meter.beginMeasuring();
            long firstMs = System.currentTimeMillis() + leadSeconds * 1000L;
            long windowMs = windowSeconds * 1000L;
            progress.phase("schedule");
            sent = schedule(producer, topic, firstMs, windowMs, sendErrors, rss);
            progress.phase("deliver");
            long lastMs = firstMs + windowMs;
            while (meter.totalMessages() < sent && System.currentTimeMillis() < lastMs + drainSeconds * 1000L) {
                rss.sampleKib();
                Pacing.pause(TimeUnit.MILLISECONDS.toNanos(200));
            }
            meter.endMeasuring();
        } finally {
            if (consumer != null) {
                consumer.shutdown();
            }
            producer.shutdown();
        }
        long received = meter.totalMessages();
        Map<String, String> extras = new HashMap<>();
        extras.put("count", Integer.toString(count));
        extras.put("sent", Long.toString(sent));
        extras.put("received", Long.toString(received));
        extras.put("lost", Long.toString(Math.max(0, sent - received)));
        extras.put("duplicates", Long.toString(duplicates.sum()));
        extras.put("early", Long.toString(early.sum()));
        extras.put("sendErrors", Long.toString(sendErrors.get()));
        extras.put("windowSeconds", Integer.toString(windowSeconds));
        extras.put("brokerRssMaxMiB", BrokerRss.mib(rss.maxKib()));
        extras.put("brokerRssEndMiB", BrokerRss.mib(rss.sampleKib()));
        extras.put("topic", topic);
        synchronized (brokerLateness) {
            LatencySummary broker = LatencySummary.of("broker", brokerLateness);
            extras.put("brokerLatenessP50Ms", Double.toString(broker.p50Ms()));
            extras.put("brokerLatenessP99Ms", Double.toString(broker.p99Ms()));
            extras.put("brokerLatenessMaxMs", Double.toString(broker.maxMs()));
        }
        BenchReport report = new BenchReport(workload, received, windowSeconds, received * Math.max(16L, common.size), sendErrors.get(),
                LatencySummary.of("lateness", meter.takeLatencies()), extras);
        spec.commandLine().getOut().print(common.format.format(report));
        spec.commandLine().getOut().flush();
        return received == sent && sent == count ? 0 : 1;
    }

    /** Sends every timer (asked times in index order) with at most {@code inFlight} unanswered; returns how many were accepted. */
    private long schedule(DefaultMQProducer producer, String topic, long firstMs, long windowMs, AtomicLong errors,
                          BrokerRss rss) throws InterruptedException {
        Semaphore window = new Semaphore(inFlight);
        LongAdder accepted = new LongAdder();
        long lastSample = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long askedMs = firstMs + windowMs * i / count;
            byte[] body = ByteBuffer.allocate(Math.max(16, common.size)).putLong(askedMs).putLong(i).array();
            Message message = new Message(topic, body);
            message.setDeliverTimeMs(askedMs);
            window.acquire();
            try {
                producer.send(message, new SendCallback() {
                    @Override
                    public void onSuccess(SendResult result) {
                        accepted.increment();
                        window.release();
                    }

                    @Override
                    public void onException(Throwable e) {
                        errors.incrementAndGet();
                        window.release();
                    }
                });
            } catch (InterruptedException e) {
                window.release();
                throw e;
            } catch (Exception e) {
                errors.incrementAndGet();
                window.release();
            }
            if (System.nanoTime() - lastSample > TimeUnit.SECONDS.toNanos(1)) {
                rss.sampleKib();
                lastSample = System.nanoTime();
            }
        }
        window.tryAcquire(inFlight, 2L * common.sendTimeoutMillis, TimeUnit.MILLISECONDS);
        return accepted.sum();
    }
}
