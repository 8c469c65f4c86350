package org.modmq.bench;

import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code probe} command: sends one small message every 20 ms until the broker stores one, and
 * reports the wall-clock time of that first success ({@code first_send_epoch_ms}). Started before a
 * broker, it measures the broker's time from process start to first successful send.
 */
@Command(name = "probe", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Retry one send until it succeeds; report when (epoch ms) for time-to-first-send.")
final class ProbeCommand implements Callable<Integer> {

    @Mixin
    CommonOptions common;

    @Option(names = {"--timeout"}, paramLabel = "SECONDS", defaultValue = "120",
            description = "Give up after this many seconds (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String error = common.validate();
        if (error == null && timeoutSeconds < 1) {
            error = "--timeout must be at least 1";
        }
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
        String topic = common.topicFor("probe");
        DefaultMQProducer producer = new BenchClients(common).producer("probe");
        producer.start();
        long started = System.currentTimeMillis();
        long firstSend;
        try {
            firstSend = BenchClients.sendUntilStored(producer, topic, timeoutSeconds * 1000L);
        } finally {
            producer.shutdown();
        }
        BenchReport report = new BenchReport("probe", 1, (firstSend - started) / 1000.0, 0, 0, null, Map.of(
                "first_send_epoch_ms", Long.toString(firstSend), "probe_started_epoch_ms", Long.toString(started),
                "topic", topic));
        spec.commandLine().getOut().print(common.format.format(report));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
