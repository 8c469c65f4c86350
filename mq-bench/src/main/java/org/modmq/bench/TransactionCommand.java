package org.modmq.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code transaction} workload: N threads share one {@code TransactionMQProducer} and each calls
 * {@code sendMessageInTransaction} in a loop for the warm-up and the measured duration. The local
 * transaction commits at once, or for {@code --unknown-fraction} of the messages answers UNKNOW, which
 * the broker's check-back then commits (see {@link CommitListener}). A push consumer in the same process
 * receives the topic; every message whose half was stored (SEND_OK) and not rolled back must arrive
 * exactly once. Reports send msgs/s and latency (the whole call: half message, local transaction, the
 * client's one-way end) of the measured window, then lost, duplicates and check-backs over the run. The
 * producer stays up after the load for {@code --drain} seconds, so check-backs can still reach it.
 */
@Command(name = "transaction", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Send transactional messages that commit, consume them, report send rate, latency, lost and duplicates.")
final class TransactionCommand implements Callable<Integer> {

    @Mixin
    CommonOptions common;

    @Mixin
    TimingOptions timing;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", defaultValue = "16",
            description = "Sending threads, 1 to 1024 (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = {"--unknown-fraction"}, paramLabel = "F", defaultValue = "0",
            description = "Share of local transactions answering UNKNOW (committed on check-back), 0 to 1 (default: ${DEFAULT-VALUE}).")
    double unknownFraction;

    @Option(names = {"--drain"}, paramLabel = "SECONDS", defaultValue = "60",
            description = "Seconds after the load to wait for the last commits and check-backs, 0 to 3600 (default: ${DEFAULT-VALUE}).")
    int drainSeconds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String error = validate();
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
        String workload = "transaction";
        String topic = common.topicFor(workload);
        BenchClients clients = new BenchClients(common);
        LoadMeter meter = new LoadMeter();
        ReceiptLedger ledger = new ReceiptLedger();
        CommitListener listener = new CommitListener(unknownFraction);
        TransactionMQProducer producer = clients.transactionProducer(workload, listener);
        producer.start();
        DefaultMQPushConsumer consumer = null;
        try (ProgressAgent progress = new ProgressAgent(spec.commandLine().getErr(), workload,
                meter::totalMessages, meter::totalErrors, common.quiet)) {
            BenchClients.sendUntilStored(producer, topic, 60_000);
            consumer = clients.pushConsumer(workload, topic);
            consumer.registerMessageListener((MessageListenerConcurrently) (batch, context) -> {
                for (MessageExt message : batch) {
                    int sequence = ReceiptLedger.sequenceOf(message.getBody());
                    if (sequence >= 0) {
                        ledger.receive(sequence);
                    }
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            new LoadRunner(timing, meter, progress).run(workload, threads,
                    running -> sendTransactional(producer, topic, meter, ledger, running));
            progress.phase("drain");
            ledger.awaitReceipts(drainSeconds * 1000L);
        } finally {
            if (consumer != null) {
                consumer.shutdown();
            }
            producer.shutdown();
        }
        Map<String, String> extras = new HashMap<>();
        extras.put("threads", Integer.toString(threads));
        extras.put("size", Integer.toString(common.size));
        extras.put("unknownFraction", Double.toString(unknownFraction));
        ledger.putFigures(extras);
        extras.put("unknownAnswers", Long.toString(listener.unknownAnswers()));
        extras.put("checkBacks", Long.toString(listener.checkBacks()));
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
        if (error == null && !(unknownFraction >= 0 && unknownFraction <= 1)) {
            error = "--unknown-fraction must be 0 to 1";
        }
        if (error == null && (drainSeconds < 0 || drainSeconds > 3600)) {
            error = "--drain must be 0 to 3600 seconds";
        }
        return error;
    }

    private void sendTransactional(TransactionMQProducer producer, String topic, LoadMeter meter, ReceiptLedger ledger,
                                   BooleanSupplier running) throws InterruptedException {
        while (running.getAsBoolean()) {
            int sequence = ledger.nextSequence();
            Message message = new Message(topic, ReceiptLedger.body(common.size, System.currentTimeMillis(), sequence));
            long started = System.nanoTime();
            try {
                TransactionSendResult result = producer.sendMessageInTransaction(message, null);
                // UNKNOW is owed too: the check-back commits it.
                if (result.getSendStatus() == SendStatus.SEND_OK
                        && result.getLocalTransactionState() != LocalTransactionState.ROLLBACK_MESSAGE) {
                    ledger.expect(sequence);
                    meter.success(1, message.getBody().length, (System.nanoTime() - started) / 1000);
                } else {
                    meter.error();
                }
            } catch (Exception e) {
                // sendMessageInTransaction declares no InterruptedException; a stop interrupts nothing here.
                meter.error();
                Pacing.pause(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }
}
