package org.modmq.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** Arguments of the {@code delay} and {@code transaction} workloads, and the pieces they share. */
class SemanticsArgumentsTest {

    @Test
    void delayDefaultsToLevelOneOfRocketMqsTable() {
        DelayCommand delay = parse(DelayCommand.class, "delay", "-n", "127.0.0.1:1");

        assertThat(delay.level).isEqualTo(1);
        assertThat(delay.threads).isEqualTo(16);
        assertThat(delay.drainSeconds).isEqualTo(30);
        assertThat(delay.timing.durationSeconds).isEqualTo(30);
        assertThat(delay.validate()).isNull();
        assertThat(DelayCommand.delayMillis(delay.levels, delay.level)).isEqualTo(1_000);
        assertThat(DelayCommand.delayMillis(delay.levels, 18)).isEqualTo(7_200_000);
    }

    @Test
    void delayTakesLevelTableThreadsAndTiming() {
        DelayCommand delay = parse(DelayCommand.class, "delay", "-n", "127.0.0.1:1", "-l", "2",
                "--delay-levels", "2s 3m 1d", "-t", "4", "-w", "1", "-d", "20", "--drain", "5", "-f", "kv");

        assertThat(delay.validate()).isNull();
        assertThat(DelayCommand.delayMillis(delay.levels, delay.level)).isEqualTo(180_000);
        assertThat(DelayCommand.delayMillis(delay.levels, 3)).isEqualTo(86_400_000);
        assertThat(delay.threads).isEqualTo(4);
        assertThat(delay.timing.durationSeconds).isEqualTo(20);
        assertThat(delay.common.format).isEqualTo(ReportFormat.KV);
    }

    @Test
    void delayRejectsOutOfRangeValuesBeforeConnecting() {
        assertThat(run("delay", "-n", "127.0.0.1:1", "-l", "19").err).contains("--level must be 1 to 18");
        assertThat(run("delay", "-n", "127.0.0.1:1", "-l", "0").exitCode).isEqualTo(2);
        assertThat(run("delay", "-n", "127.0.0.1:1", "-t", "1025").err).contains("--threads");
        assertThat(run("delay", "-n", "127.0.0.1:1", "--drain", "-1").err).contains("--drain");
        assertThat(run("delay", "-n", "127.0.0.1:1", "-d", "3601").err).contains("--duration");
        assertThat(run("delay", "-n", "127.0.0.1:1", "--delay-levels", "1s 5x").exitCode).isEqualTo(2);
        assertThatThrownBy(() -> DelayCommand.delayMillis("1s 5x", 2)).hasMessageContaining("unit");
        assertThatThrownBy(() -> DelayCommand.delayMillis("as", 1)).hasMessageContaining("no number");
        assertThatThrownBy(() -> DelayCommand.delayMillis("366d", 1)).hasMessageContaining("365 days");
        assertThatThrownBy(() -> DelayCommand.delayMillis("  ", 1)).hasMessageContaining("empty");
    }

    @Test
    void transactionDefaultsToCommittingEverything() {
        TransactionCommand tx = parse(TransactionCommand.class, "transaction", "-n", "127.0.0.1:1");

        assertThat(tx.threads).isEqualTo(16);
        assertThat(tx.unknownFraction).isZero();
        assertThat(tx.drainSeconds).isEqualTo(60);
        assertThat(tx.validate()).isNull();
    }

    @Test
    void transactionTakesThreadsAndAnUnknownFraction() {
        TransactionCommand tx = parse(TransactionCommand.class, "transaction", "-n", "127.0.0.1:1", "-t", "8",
                "--unknown-fraction", "0.25", "--drain", "90", "-w", "2", "-d", "20");

        assertThat(tx.threads).isEqualTo(8);
        assertThat(tx.unknownFraction).isEqualTo(0.25);
        assertThat(tx.drainSeconds).isEqualTo(90);
        assertThat(tx.validate()).isNull();
    }

    @Test
    void transactionRejectsOutOfRangeValuesBeforeConnecting() {
        assertThat(run("transaction", "-n", "127.0.0.1:1", "--unknown-fraction", "1.5").err).contains("--unknown-fraction");
        assertThat(run("transaction", "-n", "127.0.0.1:1", "--unknown-fraction", "NaN").exitCode).isEqualTo(2);
        assertThat(run("transaction", "-n", "127.0.0.1:1", "-t", "0").err).contains("--threads");
        assertThat(run("transaction", "-n", "127.0.0.1:1", "--drain", "3601").err).contains("--drain");
        assertThat(run("transaction", "-d", "1").err).contains("--namesrv");
    }

    @Test
    void commitListenerAnswersUnknownForAboutTheAskedShare() {
        CommitListener none = new CommitListener(0);
        CommitListener all = new CommitListener(1);
        CommitListener tenth = new CommitListener(0.1);
        int unknown = 0;
        for (int i = 0; i < 100_000; i++) {
            assertThat(none.answersUnknown(i)).isFalse();
            assertThat(all.answersUnknown(i)).isTrue();
            unknown += tenth.answersUnknown(i) ? 1 : 0;
        }
        assertThat(unknown).isBetween(9_000, 11_000);
        assertThatThrownBy(() -> new CommitListener(-0.1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ledgerCountsLostDuplicatesAndUnexpectedWhateverTheOrder() {
        ReceiptLedger ledger = new ReceiptLedger();
        int a = ledger.nextSequence();
        int b = ledger.nextSequence();
        int c = ledger.nextSequence();
        assertThat(ledger.receive(a)).isTrue(); // a receipt may beat its send's answer
        ledger.expect(a);
        ledger.expect(b);
        assertThat(ledger.receive(a)).isFalse();
        assertThat(ledger.receive(c)).isTrue();

        assertThat(ledger.expectedCount()).isEqualTo(2);
        assertThat(ledger.receivedCount()).isEqualTo(2);
        assertThat(ledger.lost()).isEqualTo(1);
        assertThat(ledger.duplicates()).isEqualTo(1);
        assertThat(ledger.unexpected()).isEqualTo(1);

        byte[] body = ReceiptLedger.body(64, 1234L, b);
        assertThat(body).hasSize(64);
        assertThat(ReceiptLedger.stampOf(body)).isEqualTo(1234L);
        assertThat(ReceiptLedger.sequenceOf(body)).isEqualTo(b);
        assertThat(ReceiptLedger.sequenceOf("probe".getBytes(java.nio.charset.StandardCharsets.UTF_8))).isEqualTo(-1);
        assertThat(ReceiptLedger.body(8, 1, 1)).hasSize(ReceiptLedger.HEADER_BYTES);
    }

    @Test
    void printsHelpForBothWorkloads() {
        assertThat(run("delay", "--help").out).contains("--level").contains("Usage: mq-bench delay");
        assertThat(run("transaction", "--help").out).contains("--unknown-fraction").contains("Usage: mq-bench transaction");
        assertThat(run("--help").out).contains("delay").contains("transaction");
    }

    private static <T> T parse(Class<T> type, String... args) {
        ParseResult result = BenchMain.commandLine().parseArgs(args);
        return type.cast(result.subcommand().commandSpec().userObject());
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = BenchMain.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return new Run(commandLine.execute(args), out.toString(), err.toString());
    }

    private record Run(int exitCode, String out, String err) {
    }
}
