package org.modmq.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

class BenchArgumentsTest {

    @Test
    void parsesProduceOptions() {
        ParseResult result = BenchMain.commandLine().parseArgs(
                "produce", "-n", "127.0.0.1:9876", "--mode", "batch", "-t", "4", "-b", "16", "-s", "2048",
                "-q", "4", "-w", "1", "-d", "7", "-f", "kv", "--window", "64");
        ProduceCommand produce = (ProduceCommand) result.subcommand().commandSpec().userObject();

        assertThat(produce.common.namesrv).isEqualTo("127.0.0.1:9876");
        assertThat(produce.mode).isEqualTo(ProduceCommand.Mode.BATCH);
        assertThat(produce.threads).isEqualTo(4);
        assertThat(produce.batch).isEqualTo(16);
        assertThat(produce.window).isEqualTo(64);
        assertThat(produce.common.size).isEqualTo(2048);
        assertThat(produce.common.queues).isEqualTo(4);
        assertThat(produce.timing.warmupSeconds).isEqualTo(1);
        assertThat(produce.timing.durationSeconds).isEqualTo(7);
        assertThat(produce.common.format).isEqualTo(ReportFormat.KV);
    }

    @Test
    void appliesDefaults() {
        ParseResult result = BenchMain.commandLine().parseArgs("e2e", "-n", "127.0.0.1:1");
        E2eCommand e2e = (E2eCommand) result.subcommand().commandSpec().userObject();

        assertThat(e2e.rate).isEqualTo(20_000);
        assertThat(e2e.common.size).isEqualTo(1024);
        assertThat(e2e.common.format).isEqualTo(ReportFormat.TEXT);
        assertThat(e2e.timing.warmupSeconds).isEqualTo(5);
        assertThat(e2e.timing.durationSeconds).isEqualTo(30);
        assertThat(e2e.common.topicFor("e2e")).startsWith("bench_e2e_");
    }

    @Test
    void parsesConsumeOptions() {
        ParseResult result = BenchMain.commandLine().parseArgs(
                "consume", "--namesrv", "127.0.0.1:1", "-N", "1000", "--consumer", "PUSH", "--topic", "t1");
        ConsumeCommand consume = (ConsumeCommand) result.subcommand().commandSpec().userObject();

        assertThat(consume.messages).isEqualTo(1000);
        assertThat(consume.consumer).isEqualTo(ConsumeCommand.ConsumerKind.PUSH);
        assertThat(consume.common.topicFor("consume")).isEqualTo("t1");
    }

    @Test
    void parsesFailoverOptions() {
        ParseResult result = BenchMain.commandLine().parseArgs(
                "failover", "-n", "127.0.0.1:1", "--broker-name", "fo-a", "--fault", "stop",
                "--broker-pid", "127.0.0.1:2=22", "--broker-pid", "127.0.0.1:3=33", "--poll-name-server-ms", "1000",
                "--cont-after-ms", "500", "--controller", "127.0.0.1:4", "-w", "2", "-d", "9");
        FailoverCommand failover = (FailoverCommand) result.subcommand().commandSpec().userObject();

        assertThat(failover.options.faultOrNull()).isEqualTo(FailoverOptions.Fault.STOP);
        assertThat(failover.options.brokerPids).containsEntry("127.0.0.1:2", 22L).containsEntry("127.0.0.1:3", 33L);
        assertThat(failover.options.pollNameServerMillis).isEqualTo(1000);
        assertThat(failover.options.contAfterMillis).isEqualTo(500);
        assertThat(failover.options.threads).isEqualTo(4);
        assertThat(failover.options.retries).isEqualTo(2);
        assertThat(failover.options.validate()).isNull();
        assertThat(failover.timing.durationSeconds).isEqualTo(9);
    }

    @Test
    void defaultsTheFaultToKillAndNeedsNoTargetWithoutOne() {
        ParseResult kill = BenchMain.commandLine().parseArgs("failover", "-n", "127.0.0.1:1", "--broker-name", "a",
                "--pid", "7");
        ParseResult none = BenchMain.commandLine().parseArgs("failover", "-n", "127.0.0.1:1", "--broker-name", "a",
                "--no-fault");

        FailoverOptions killOptions = ((FailoverCommand) kill.subcommand().commandSpec().userObject()).options;
        FailoverOptions noneOptions = ((FailoverCommand) none.subcommand().commandSpec().userObject()).options;
        assertThat(killOptions.faultOrNull()).isEqualTo(FailoverOptions.Fault.KILL);
        assertThat(killOptions.validate()).isNull();
        assertThat(noneOptions.faultOrNull()).isNull();
        assertThat(noneOptions.validate()).isNull();
        assertThat(noneOptions.pollNameServerMillis).isEqualTo(30_000);
    }

    @Test
    void rejectsAFaultWithoutExactlyOneTarget() {
        Run none = run("failover", "-n", "127.0.0.1:1", "--broker-name", "a", "--fault", "kill");
        Run two = run("failover", "-n", "127.0.0.1:1", "--broker-name", "a", "--pid", "1", "--pid-file", "x");
        Run both = run("failover", "-n", "127.0.0.1:1", "--broker-name", "a", "--no-fault", "--fault", "stop");

        assertThat(none.exitCode).isEqualTo(2);
        assertThat(none.err).contains("--broker-pid");
        assertThat(two.exitCode).isEqualTo(2);
        assertThat(both.exitCode).isEqualTo(2);
        assertThat(both.err).contains("exclude each other");
    }

    @Test
    void rejectsMissingNameServer() {
        Run run = run("produce", "-d", "1");

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--namesrv");
    }

    @Test
    void rejectsOutOfRangeValuesBeforeConnecting() {
        Run run = run("produce", "-n", "127.0.0.1:1", "-t", "0");

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--threads");
    }

    @Test
    void rejectsMissingWorkload() {
        assertThat(run().exitCode).isEqualTo(2);
    }

    @Test
    void printsHelpForEveryWorkload() {
        for (String workload : new String[] {"produce", "consume", "e2e", "probe", "failover"}) {
            Run run = run(workload, "--help");

            assertThat(run.exitCode).isZero();
            assertThat(run.out).contains("--namesrv").contains("Usage: mq-bench " + workload);
        }
        assertThat(run("--help").out).contains("produce").contains("consume").contains("e2e").contains("failover");
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = BenchMain.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }

    private record Run(int exitCode, String out, String err) {
    }
}
