package org.modmq.bench;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
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
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code e2e} workload: a producer sends at a fixed rate, a push consumer in the same JVM
 * receives. Each body starts with the send time ({@link System#nanoTime()}, big-endian int64; the
 * same clock on both sides since both run in this process); the consumer records receipt time minus
 * send time. Only messages sent inside the measured window are counted; after it the consumer has up
 * to 30 s to receive the rest, and what never arrives is reported as {@code lost}.
 */
@Command(name = "e2e", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Send at a fixed rate, consume in the same process, report end-to-end latency.")
final class E2eCommand implements Callable<Integer> {

    private static final long DRAIN_SECONDS = 30;

    @Mixin
    CommonOptions common;

    @Mixin
    TimingOptions timing;

    @Option(names = {"-r", "--rate"}, paramLabel = "MSGS_PER_SEC", defaultValue = "20000",
            description = "Send rate in messages per second (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = {"--window"}, paramLabel = "N", defaultValue = "2048",
            description = "Async sends in flight at most; a full window delays sends (default: ${DEFAULT-VALUE}).")
    int window;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String error = common.validate();
        if (error == null) {
            error = timing.validate();
        }
        if (error == null && (rate < 1 || window < 1)) {
            error = "--rate and --window must be at least 1";
        }
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
        String workload = "e2e";
        String topic = common.topicFor(workload);
        BenchClients clients = new BenchClients(common);
        LoadMeter meter = new LoadMeter();
        LongAdder measuredSent = new LongAdder();
        LongAdder measuredReceived = new LongAdder();
        LongAdder acked = new LongAdder();
        AtomicLongArray window = new AtomicLongArray(new long[] {Long.MAX_VALUE, Long.MAX_VALUE});

        DefaultMQProducer producer = clients.producer(workload);
        producer.start();
        DefaultMQPushConsumer consumer = null;
        try (ProgressAgent progress = new ProgressAgent(spec.commandLine().getErr(), workload,
                meter::totalMessages, meter::totalErrors, common.quiet)) {
            BenchClients.sendUntilStored(producer, topic, 60_000);
            consumer = clients.pushConsumer(workload, topic);
            consumer.registerMessageListener((MessageListenerConcurrently) (batch, context) -> {
                long now = System.nanoTime();
                for (MessageExt message : batch) {
                    byte[] body = message.getBody();
                    if (body == null || body.length < Long.BYTES) {
                        continue;
                    }
                    long sent = ByteBuffer.wrap(body).getLong();
                    meter.success(1, body.length);
                    if (sent >= window.get(0) && sent < window.get(1)) {
                        measuredReceived.increment();
                        meter.recordLatency((now - sent) / 1000);
                    }
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();

            Semaphore inFlight = new Semaphore(this.window);
            LoadRunner runner = new LoadRunner(timing, new LoadMeter(), progress);
            runner.run(workload, 1,
                    running -> sendPaced(producer, topic, meter, inFlight, measuredSent, acked, window, running));
            progress.phase("drain");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
            while (measuredReceived.sum() < measuredSent.sum() && System.nanoTime() - deadline < 0) {
                Pacing.pause(TimeUnit.MILLISECONDS.toNanos(10));
            }
        } finally {
            if (consumer != null) {
                consumer.shutdown();
            }
            producer.shutdown();
        }
        double seconds = timing.durationSeconds;
        BenchReport report = new BenchReport(workload, measuredReceived.sum(), seconds,
                measuredReceived.sum() * common.size, meter.totalErrors(),
                LatencySummary.of("e2e", meter.takeLatencies()), Map.of(
                        "rate", Integer.toString(rate), "sent", Long.toString(measuredSent.sum()),
                        "lost", Long.toString(Math.max(0, measuredSent.sum() - measuredReceived.sum())),
                        "size", Integer.toString(common.size), "topic", topic,
                        "moved", Long.toString(acked.sum() + 1 + meter.totalMessages())));
        spec.commandLine().getOut().print(common.format.format(report));
        spec.commandLine().getOut().flush();
        return report.messages() > 0 ? 0 : 1;
    }

    /**
     * Sends at the configured rate until stopped. The measured window is the span of send times
     * between the runner opening and closing its meter; it is published through {@code window}
     * (start, end) so the consumer can tell which receipts count.
     */
    private void sendPaced(DefaultMQProducer producer, String topic, LoadMeter meter, Semaphore inFlight,
                           LongAdder measuredSent, LongAdder acked, AtomicLongArray window,
                           BooleanSupplier running) throws Exception {
        long started = System.nanoTime();
        long sent = 0;
        long warmupEnd = started + TimeUnit.SECONDS.toNanos(timing.warmupSeconds);
        long measureEnd = warmupEnd + TimeUnit.SECONDS.toNanos(timing.durationSeconds);
        window.set(1, measureEnd);
        window.set(0, warmupEnd);
        while (running.getAsBoolean()) {
            long now = System.nanoTime();
            long due = (now - started) * rate / 1_000_000_000L;
            if (sent >= due) {
                Pacing.pause(Math.min(1_000_000L, (sent + 1) * 1_000_000_000L / rate + started - now));
                continue;
            }
            if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                continue;
            }
            long stamp = System.nanoTime();
            byte[] body = new byte[common.size];
            ByteBuffer.wrap(body).putLong(stamp);
            boolean measured = stamp >= warmupEnd && stamp < measureEnd;
            if (measured) {
                measuredSent.increment();
            }
            sent++;
            try {
                producer.send(new Message(topic, body), new SendCallback() {
                    @Override
                    public void onSuccess(SendResult result) {
                        inFlight.release();
                        acked.increment();
                    }

                    @Override
                    public void onException(Throwable e) {
                        inFlight.release();
                        unsent(meter, measuredSent, measured);
                    }
                });
            } catch (InterruptedException e) {
                inFlight.release();
                throw e;
            } catch (Exception e) {
                inFlight.release();
                unsent(meter, measuredSent, measured);
            }
        }
        if (!inFlight.tryAcquire(this.window, 2L * common.sendTimeoutMillis, TimeUnit.MILLISECONDS)) {
            meter.error();
        }
    }

    /** A failed send is an error, and a measured one no longer counts as sent (it cannot arrive). */
    private static void unsent(LoadMeter meter, LongAdder measuredSent, boolean measured) {
        meter.error();
        if (measured) {
            measuredSent.decrement();
        }
    }
}
