package org.modmq.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.body.KVTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code backlog} workload: a consumer catches up on a backlog while producers load the master.
 * Stores N messages, waits until every broker given with {@code --broker} holds the master's whole log,
 * then drains the backlog with a lite pull consumer of a new group while {@code -t} threads sync-send to a
 * second topic. Reports the drain rate, the load's rate and send latency during the drain, and how many
 * messages each broker served ({@code msgGetTotalTodayNow} before and after, from GET_BROKER_RUNTIME_INFO):
 * whether the master sent the consumer to a replica.
 */
@Command(name = "backlog", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Drain a stored backlog while producers load the master; report both and who served reads.")
final class BacklogCommand implements Callable<Integer> {

    private static final String GETS = "msgGetTotalTodayNow";
    private static final String MAX_OFFSET = "commitLogMaxOffset";

    @Mixin
    CommonOptions common;

    @Option(names = {"-N", "--messages"}, paramLabel = "N", defaultValue = "200000",
            description = "Backlog messages stored before the drain (default: ${DEFAULT-VALUE}).")
    long messages;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", defaultValue = "16",
            description = "Threads sync-sending to the load topic during the drain (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = {"--broker"}, paramLabel = "HOST:PORT", required = true,
            description = "A broker of the set, master first (repeat): waited for and counted.")
    List<String> brokers;

    @Option(names = {"--timeout"}, paramLabel = "SECONDS", defaultValue = "600",
            description = "Give up storing, waiting or draining after this many seconds each (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String error = common.validate();
        if (error == null && (messages < 1 || threads < 1 || timeoutSeconds < 1)) {
            error = "--messages, --threads and --timeout must be at least 1";
        }
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
        String topic = common.topicFor("backlog");
        String loadTopic = topic + "_load";
        BenchClients clients = new BenchClients(common);
        byte[] body = new byte[common.size];
        ThreadLocalRandom.current().nextBytes(body);
        DefaultMQProducer producer = clients.producer("backlog");
        producer.start();
        try {
            MQClientAPIImpl api = producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
            LoadMeter stored = new LoadMeter();
            try (ProgressAgent progress = new ProgressAgent(spec.commandLine().getErr(), "backlog",
                    stored::totalMessages, stored::totalErrors, common.quiet)) {
                progress.phase("store");
                BenchClients.sendUntilStored(producer, topic, 60_000);
                BenchClients.sendUntilStored(producer, loadTopic, 60_000);
                new Preloader(producer, stored).fill(topic, body, messages - 1, timeoutSeconds * 1000L);
                progress.phase("replicas");
                long waited = awaitReplicas(api);
                Map<String, Long> before = gets(api);
                LoadMeter load = new LoadMeter();
                LoadMeter drain = new LoadMeter();
                boolean complete = drainUnderLoad(clients, producer, topic, loadTopic, body, load, drain);
                Map<String, Long> after = gets(api);
                Map<String, String> extras = new LinkedHashMap<>();
                extras.put("complete", Boolean.toString(complete));
                extras.put("drain_msgs_per_sec", String.format("%.1f", rate(drain)));
                extras.put("drain_seconds", String.format("%.3f", drain.measuredSeconds()));
                extras.put("load_msgs_per_sec", String.format("%.1f", rate(load)));
                extras.put("load_errors", Long.toString(load.measuredErrors()));
                extras.put("replica_wait_ms", Long.toString(waited));
                extras.put("topic", topic);
                for (int i = 0; i < brokers.size(); i++) {
                    String broker = brokers.get(i);
                    long served = after.getOrDefault(broker, 0L) - before.getOrDefault(broker, 0L);
                    extras.put("served_by_" + (i == 0 ? "master" : "broker" + i), Long.toString(served));
                }
                BenchReport report = BenchReport.of("backlog", load, "send", extras);
                spec.commandLine().getOut().print(common.format.format(report));
                spec.commandLine().getOut().flush();
                return complete ? 0 : 1;
            }
        } finally {
            producer.shutdown();
        }
    }

    private static double rate(LoadMeter meter) {
        return meter.measuredSeconds() <= 0 ? 0 : meter.measuredMessages() / meter.measuredSeconds();
    }

    /** Drains the backlog while the load threads send; both meters measure the drain's window. */
    private boolean drainUnderLoad(BenchClients clients, DefaultMQProducer producer, String topic, String loadTopic,
                                   byte[] body, LoadMeter load, LoadMeter drain) throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService senders = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "backlog-load");
            thread.setDaemon(true);
            return thread;
        });
        for (int i = 0; i < threads; i++) {
            senders.execute(() -> {
                while (running.get()) {
                    long started = System.nanoTime();
                    try {
                        SendResult result = producer.send(new Message(loadTopic, body));
                        if (result.getSendStatus() == SendStatus.SEND_OK) {
                            load.success(1, body.length, (System.nanoTime() - started) / 1_000);
                        } else {
                            load.error();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    } catch (Exception e) {
                        load.error();
                    }
                }
            });
        }
        DefaultLitePullConsumer consumer = clients.litePullConsumer("backlog", topic);
        consumer.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            while (drain.totalMessages() < messages && System.nanoTime() - deadline < 0) {
                List<MessageExt> batch = consumer.poll();
                if (batch.isEmpty()) {
                    continue;
                }
                boolean opening = drain.totalMessages() == 0;
                drain.success(batch.size(), (long) batch.size() * body.length);
                if (opening) {
                    drain.beginMeasuring();
                    load.beginMeasuring();
                }
            }
            drain.endMeasuring();
            load.endMeasuring();
            return drain.totalMessages() >= messages;
        } finally {
            running.set(false);
            consumer.shutdown();
            senders.shutdown();
            if (!senders.awaitTermination(30, TimeUnit.SECONDS)) {
                senders.shutdownNow();
            }
        }
    }

    /** Waits until every broker's CommitLog end reaches the first one's; returns the wait in ms. */
    private long awaitReplicas(MQClientAPIImpl api) throws Exception {
        long started = System.nanoTime();
        long deadline = started + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() - deadline < 0) {
            long master = stat(api, brokers.get(0), MAX_OFFSET);
            boolean all = master > 0;
            for (String broker : brokers.subList(1, brokers.size())) {
                all &= stat(api, broker, MAX_OFFSET) >= master;
            }
            if (all) {
                return (System.nanoTime() - started) / 1_000_000;
            }
            Pacing.pause(TimeUnit.MILLISECONDS.toNanos(50));
        }
        throw new BenchException("the brokers " + brokers + " did not catch up with the master within "
                + timeoutSeconds + " s");
    }

    private Map<String, Long> gets(MQClientAPIImpl api) throws InterruptedException {
        Map<String, Long> gets = new LinkedHashMap<>();
        for (String broker : new ArrayList<>(brokers)) {
            gets.put(broker, stat(api, broker, GETS));
        }
        return gets;
    }

    private static long stat(MQClientAPIImpl api, String address, String key) throws InterruptedException {
        try {
            KVTable table = api.getBrokerRuntimeInfo(address, 3_000);
            String value = table.getTable().get(key);
            return value == null ? -1 : Long.parseLong(value.trim());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return -1;
        }
    }
}
