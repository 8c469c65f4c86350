package org.modmq.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code produce} workload: one shared producer sends fixed-size messages from N threads,
 * synchronously, asynchronously within a bounded in-flight window, or as batches. Reports
 * throughput and per-request send latency (a batch is one request).
 */
@Command(name = "produce", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Send messages as fast as the broker answers and report msgs/s, MiB/s and send latency.")
final class ProduceCommand implements Callable<Integer> {

    /** How messages are sent. */
    enum Mode { SYNC, ASYNC, BATCH }

    @Mixin
    CommonOptions common;

    @Mixin
    TimingOptions timing;

    @Option(names = {"-m", "--mode"}, paramLabel = "MODE", defaultValue = "SYNC",
            description = "${COMPLETION-CANDIDATES}: one blocking send per thread at a time, callbacks within "
                    + "--window requests in flight, or --batch messages per request (default: ${DEFAULT-VALUE}).")
    Mode mode;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", defaultValue = "16",
            description = "Sending threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = {"--window"}, paramLabel = "N", defaultValue = "1024",
            description = "ASYNC: requests in flight at most, over all threads (default: ${DEFAULT-VALUE}).")
    int window;

    @Option(names = {"-b", "--batch"}, paramLabel = "N", defaultValue = "32",
            description = "BATCH: messages per request (default: ${DEFAULT-VALUE}).")
    int batch;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        validate();
        String workload = "produce-" + mode.name().toLowerCase(java.util.Locale.ROOT);
        String topic = common.topicFor(workload);
        byte[] body = new byte[common.size];
        ThreadLocalRandom.current().nextBytes(body);
        DefaultMQProducer producer = new BenchClients(common).producer(workload);
        producer.start();
        LoadMeter meter = new LoadMeter();
        try (ProgressAgent progress = new ProgressAgent(spec.commandLine().getErr(), workload,
                meter::totalMessages, meter::totalErrors, common.quiet)) {
            BenchClients.sendUntilStored(producer, topic, 60_000);
            Semaphore inFlight = new Semaphore(window);
            LoadRunner.Worker worker = switch (mode) {
                case SYNC -> running -> sendSync(producer, topic, body, meter, running);
                case ASYNC -> running -> sendAsync(producer, topic, body, meter, inFlight, running);
                case BATCH -> running -> sendBatches(producer, topic, body, meter, running);
            };
            new LoadRunner(timing, meter, progress).run(workload, threads, worker);
            if (mode == Mode.ASYNC && !inFlight.tryAcquire(window, 2L * common.sendTimeoutMillis, TimeUnit.MILLISECONDS)) {
                spec.commandLine().getErr().println("warning: async sends still in flight at shutdown");
            }
        } finally {
            producer.shutdown();
        }
        BenchReport report = BenchReport.of(workload, meter, "send", Map.of(
                "threads", Integer.toString(threads), "size", Integer.toString(common.size),
                "batch", Integer.toString(mode == Mode.BATCH ? batch : 1), "topic", topic,
                "moved", Long.toString(meter.totalMessages() + 1)));
        spec.commandLine().getOut().print(common.format.format(report));
        spec.commandLine().getOut().flush();
        return report.messages() > 0 ? 0 : 1;
    }

    private void validate() {
        String error = common.validate();
        if (error == null) {
            error = timing.validate();
        }
        if (error == null && (threads < 1 || window < 1 || batch < 1)) {
            error = "--threads, --window and --batch must be at least 1";
        }
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
    }

    private static void sendSync(DefaultMQProducer producer, String topic, byte[] body, LoadMeter meter,
                                 BooleanSupplier running) throws InterruptedException {
        while (running.getAsBoolean()) {
            long started = System.nanoTime();
            try {
                SendResult result = producer.send(new Message(topic, body));
                record(meter, result, 1, body.length, started);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                failed(meter);
            }
        }
    }

    private static void sendAsync(DefaultMQProducer producer, String topic, byte[] body, LoadMeter meter,
                                  Semaphore inFlight, BooleanSupplier running) throws InterruptedException {
        while (running.getAsBoolean()) {
            if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                continue;
            }
            long started = System.nanoTime();
            try {
                producer.send(new Message(topic, body), new SendCallback() {
                    @Override
                    public void onSuccess(SendResult result) {
                        inFlight.release();
                        record(meter, result, 1, body.length, started);
                    }

                    @Override
                    public void onException(Throwable e) {
                        inFlight.release();
                        meter.error();
                    }
                });
            } catch (InterruptedException e) {
                inFlight.release();
                throw e;
            } catch (Exception e) {
                inFlight.release();
                failed(meter);
            }
        }
    }

    private void sendBatches(DefaultMQProducer producer, String topic, byte[] body, LoadMeter meter,
                             BooleanSupplier running) throws InterruptedException {
        while (running.getAsBoolean()) {
            List<Message> messages = new ArrayList<>(batch);
            for (int i = 0; i < batch; i++) {
                messages.add(new Message(topic, body));
            }
            long started = System.nanoTime();
            try {
                SendResult result = producer.send(messages);
                record(meter, result, batch, (long) batch * body.length, started);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                failed(meter);
            }
        }
    }

    private static void record(LoadMeter meter, SendResult result, int messages, long bytes, long startedNanos) {
        if (result.getSendStatus() == SendStatus.SEND_OK) {
            meter.success(messages, bytes, (System.nanoTime() - startedNanos) / 1000);
        } else {
            meter.error();
        }
    }

    /** Counts an error; backs off 1 ms so a broker that refuses everything is not hammered in a tight loop. */
    private static void failed(LoadMeter meter) throws InterruptedException {
        meter.error();
        Pacing.pause(TimeUnit.MILLISECONDS.toNanos(1));
    }
}
