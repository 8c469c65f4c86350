package org.modmq.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageExt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code consume} workload: stores N messages in a fresh topic, then drains them with a lite
 * pull or push consumer of a new group starting at the first offset. The rate is taken from the
 * first received message to the N-th, so consumer start-up and rebalancing are not counted.
 */
@Command(name = "consume", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Store N messages, then drain them with one consumer and report msgs/s and MiB/s.")
final class ConsumeCommand implements Callable<Integer> {

    /** Which stock consumer drains the topic. */
    enum ConsumerKind { LITE, PUSH }

    @Mixin
    CommonOptions common;

    @Option(names = {"-N", "--messages"}, paramLabel = "N", defaultValue = "1000000",
            description = "Messages to store and then drain (default: ${DEFAULT-VALUE}).")
    long messages;

    @Option(names = {"-c", "--consumer"}, paramLabel = "KIND", defaultValue = "LITE",
            description = "${COMPLETION-CANDIDATES}: DefaultLitePullConsumer or DefaultMQPushConsumer "
                    + "(default: ${DEFAULT-VALUE}).")
    ConsumerKind consumer;

    @Option(names = {"--timeout"}, paramLabel = "SECONDS", defaultValue = "600",
            description = "Give up storing or draining after this many seconds each (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String error = common.validate();
        if (error == null && (messages < 1 || timeoutSeconds < 1)) {
            error = "--messages and --timeout must be at least 1";
        }
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
        String workload = "consume-" + consumer.name().toLowerCase(Locale.ROOT);
        String topic = common.topicFor(workload);
        BenchClients clients = new BenchClients(common);
        byte[] body = new byte[common.size];
        ThreadLocalRandom.current().nextBytes(body);

        LoadMeter stored = new LoadMeter();
        DefaultMQProducer producer = clients.producer(workload);
        producer.start();
        try (ProgressAgent progress = new ProgressAgent(spec.commandLine().getErr(), workload,
                stored::totalMessages, stored::totalErrors, common.quiet)) {
            progress.phase("store");
            BenchClients.sendUntilStored(producer, topic, 60_000);
            new Preloader(producer, stored).fill(topic, body, messages - 1, timeoutSeconds * 1000L);
        } finally {
            producer.shutdown();
        }

        LoadMeter meter = new LoadMeter();
        try (ProgressAgent progress = new ProgressAgent(spec.commandLine().getErr(), workload,
                meter::totalMessages, meter::totalErrors, common.quiet)) {
            progress.phase("drain");
            boolean complete = consumer == ConsumerKind.LITE
                    ? drainLite(clients, workload, topic, meter)
                    : drainPush(clients, workload, topic, meter);
            if (meter.measuring()) {
                meter.endMeasuring();
            }
            BenchReport report = BenchReport.of(workload, meter, null, Map.of(
                    "received", Long.toString(meter.totalMessages()), "expected", Long.toString(messages),
                    "complete", Boolean.toString(complete), "size", Integer.toString(common.size), "topic", topic,
                    "moved", Long.toString(stored.totalMessages() + 1 + meter.totalMessages())));
            spec.commandLine().getOut().print(common.format.format(report));
            spec.commandLine().getOut().flush();
            return complete ? 0 : 1;
        }
    }

    private boolean drainLite(BenchClients clients, String workload, String topic, LoadMeter meter) throws Exception {
        DefaultLitePullConsumer lite = clients.litePullConsumer(workload, topic);
        lite.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            while (meter.totalMessages() < messages && System.nanoTime() - deadline < 0) {
                List<MessageExt> batch = lite.poll();
                received(meter, batch);
            }
            return meter.totalMessages() >= messages;
        } finally {
            lite.shutdown();
        }
    }

    private boolean drainPush(BenchClients clients, String workload, String topic, LoadMeter meter) throws Exception {
        DefaultMQPushConsumer push = clients.pushConsumer(workload, topic);
        CountDownLatch done = new CountDownLatch(1);
        AtomicLong count = new AtomicLong();
        AtomicBoolean first = new AtomicBoolean(true);
        push.registerMessageListener((MessageListenerConcurrently) (batch, context) -> {
            meter.success(batch.size(), bytes(batch));
            if (first.compareAndSet(true, false)) {
                meter.beginMeasuring();
            }
            if (count.addAndGet(batch.size()) >= messages) {
                done.countDown();
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        push.start();
        try {
            boolean complete = done.await(timeoutSeconds, TimeUnit.SECONDS);
            meter.endMeasuring();
            return complete;
        } finally {
            push.shutdown();
        }
    }

    /** Counts a polled batch; the first non-empty batch opens the measured window and is not measured. */
    private void received(LoadMeter meter, List<MessageExt> batch) {
        if (batch.isEmpty()) {
            return;
        }
        boolean opening = !meter.measuring() && meter.totalMessages() == 0;
        meter.success(batch.size(), bytes(batch));
        if (opening) {
            meter.beginMeasuring();
        } else if (meter.totalMessages() >= messages) {
            meter.endMeasuring();
        }
    }

    private static long bytes(List<MessageExt> batch) {
        long total = 0;
        for (MessageExt message : batch) {
            total += message.getBody() == null ? 0 : message.getBody().length;
        }
        return total;
    }
}
