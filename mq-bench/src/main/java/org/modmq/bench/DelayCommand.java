package org.modmq.bench;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code delay} workload: N threads share one producer and send, blocking, messages with a delay
 * level ({@code Message#setDelayTimeLevel}) for the warm-up and the measured duration; a push consumer
 * in the same process, started before the load, receives them. Reports send msgs/s and send latency of
 * the measured window, and over every acknowledged message the delivery lateness: receipt time minus
 * (send start + the level's delay), wall clock of this machine (the broker must share it: same host).
 * A message that arrives early counts as lateness 0 and in {@code early}. After the load the consumer
 * has the level's delay plus {@code --drain} seconds; what is still missing then is {@code lost}.
 */
@Command(name = "delay", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Sync-send messages with a delay level, consume them, report send rate and delivery lateness.")
final class DelayCommand implements Callable<Integer> {

    /** RocketMQ's default {@code messageDelayLevel}: level 1 is the first entry. */
    static final String DEFAULT_LEVELS = "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h";

    @Mixin
    CommonOptions common;

    @Mixin
    TimingOptions timing;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", defaultValue = "16",
            description = "Sending threads, 1 to 1024 (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = {"-l", "--level"}, paramLabel = "LEVEL", defaultValue = "1",
            description = "Delay level of every message, 1 to the number of --delay-levels (default: ${DEFAULT-VALUE}).")
    int level;

    @Option(names = {"--delay-levels"}, paramLabel = "TABLE", defaultValue = DEFAULT_LEVELS,
            description = "The broker's messageDelayLevel, to know what a level waits (default: RocketMQ's, '${DEFAULT-VALUE}').")
    String levels;

    @Option(names = {"--drain"}, paramLabel = "SECONDS", defaultValue = "30",
            description = "Seconds, beyond the level's delay, to wait for the last messages, 0 to 3600 (default: ${DEFAULT-VALUE}).")
    int drainSeconds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String error = validate();
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
        long delayMs = delayMillis(levels, level);
        String workload = "delay";
        String topic = common.topicFor(workload);
        BenchClients clients = new BenchClients(common);
        LoadMeter meter = new LoadMeter();
        ReceiptLedger ledger = new ReceiptLedger();
        Histogram lateness = new Histogram(LoadMeter.HIGHEST_TRACKABLE_MICROS, 3);
        LongAdder early = new LongAdder();
        DefaultMQProducer producer = clients.producer(workload);
        producer.start();
        DefaultMQPushConsumer consumer = null;
        try (ProgressAgent progress = new ProgressAgent(spec.commandLine().getErr(), workload,
                meter::totalMessages, meter::totalErrors, common.quiet)) {
            BenchClients.sendUntilStored(producer, topic, 60_000);
            consumer = clients.pushConsumer(workload, topic);
            consumer.registerMessageListener((MessageListenerConcurrently) (batch, context) -> {
                long now = System.currentTimeMillis();
                for (MessageExt message : batch) {
                    int sequence = ReceiptLedger.sequenceOf(message.getBody());
                    if (sequence < 0 || !ledger.receive(sequence)) {
                        continue;
                    }
                    long lateMs = now - (ReceiptLedger.stampOf(message.getBody()) + delayMs);
                    if (lateMs < 0) {
                        early.increment();
                    }
                    synchronized (lateness) {
                        lateness.recordValue(Math.min(LoadMeter.HIGHEST_TRACKABLE_MICROS, Math.max(0, lateMs) * 1000));
                    }
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            new LoadRunner(timing, meter, progress).run(workload, threads,
                    running -> sendDelayed(producer, topic, meter, ledger, running));
            progress.phase("deliver");
            ledger.awaitReceipts(delayMs + drainSeconds * 1000L);
        } finally {
            if (consumer != null) {
                consumer.shutdown();
            }
            producer.shutdown();
        }
        Map<String, String> extras = new HashMap<>();
        extras.put("threads", Integer.toString(threads));
        extras.put("size", Integer.toString(common.size));
        extras.put("level", Integer.toString(level));
        extras.put("delayMs", Long.toString(delayMs));
        ledger.putFigures(extras);
        extras.put("early", Long.toString(early.sum()));
        synchronized (lateness) {
            LatencySummary late = LatencySummary.of("lateness", lateness);
            extras.put("latenessP50Ms", Double.toString(late.p50Ms()));
            extras.put("latenessP99Ms", Double.toString(late.p99Ms()));
            extras.put("latenessMaxMs", Double.toString(late.maxMs()));
        }
        extras.put("topic", topic);
        BenchReport report = BenchReport.of(workload, meter, "send", extras);
        spec.commandLine().getOut().print(common.format.format(report));
        spec.commandLine().getOut().flush();
        return report.messages() > 0 && ledger.lost() == 0 ? 0 : 1;
    }

    /** Checks the value ranges; returns an error message or {@code null}. */
    String validate() {
        String error = common.validate();
        if (error == null) {
            error = timing.validate();
        }
        if (error == null && (timing.warmupSeconds > 3600 || timing.durationSeconds > 3600)) {
            error = "--warmup and --duration must be at most 3600 seconds";
        }
        if (error == null && (threads < 1 || threads > 1024)) {
            error = "--threads must be 1 to 1024";
        }
        if (error == null && (drainSeconds < 0 || drainSeconds > 3600)) {
            error = "--drain must be 0 to 3600 seconds";
        }
        if (error == null) {
            try {
                delayMillis(levels, level);
            } catch (IllegalArgumentException e) {
                error = e.getMessage();
            }
        }
        return error;
    }

    /**
     * What {@code level} waits in a {@code messageDelayLevel} table (entries such as {@code 1s 5m 2h 1d},
     * separated by spaces), in ms. Every entry is checked, not only the one asked for.
     *
     * @throws IllegalArgumentException for a malformed table or a level outside it
     */
    static long delayMillis(String table, int level) {
        String[] entries = table == null ? new String[0] : table.trim().split("\\s+");
        if (entries.length == 0 || entries[0].isEmpty()) {
            throw new IllegalArgumentException("--delay-levels must not be empty");
        }
        long[] millis = new long[entries.length];
        for (int i = 0; i < entries.length; i++) {
            millis[i] = entryMillis(entries[i].toLowerCase(Locale.ROOT));
        }
        if (level < 1 || level > entries.length) {
            throw new IllegalArgumentException("--level must be 1 to " + entries.length);
        }
        return millis[level - 1];
    }

    private static long entryMillis(String entry) {
        long unit = switch (entry.charAt(entry.length() - 1)) {
            case 's' -> 1_000L;
            case 'm' -> 60_000L;
            case 'h' -> 3_600_000L;
            case 'd' -> 86_400_000L;
            default -> throw new IllegalArgumentException("--delay-levels entry '" + entry + "' needs a unit s, m, h or d");
        };
        long amount;
        try {
            amount = Long.parseLong(entry.substring(0, entry.length() - 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--delay-levels entry '" + entry + "' is no number", e);
        }
        if (amount < 0 || amount > 365 * 86_400_000L / unit) {
            throw new IllegalArgumentException("--delay-levels entry '" + entry + "' is out of range (0 to 365 days)");
        }
        return amount * unit;
    }

    private void sendDelayed(DefaultMQProducer producer, String topic, LoadMeter meter, ReceiptLedger ledger,
                             BooleanSupplier running) throws InterruptedException {
        while (running.getAsBoolean()) {
            int sequence = ledger.nextSequence();
            long stampMs = System.currentTimeMillis();
            Message message = new Message(topic, ReceiptLedger.body(common.size, stampMs, sequence));
            message.setDelayTimeLevel(level);
            long started = System.nanoTime();
            try {
                SendResult result = producer.send(message);
                if (result.getSendStatus() == SendStatus.SEND_OK) {
                    ledger.expect(sequence);
                    meter.success(1, message.getBody().length, (System.nanoTime() - started) / 1000);
                } else {
                    meter.error();
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                meter.error();
                Pacing.pause(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }
}
