package org.modmq.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;

/**
 * Entry point of the {@code mq-bench} jar: a load generator on the stock Apache RocketMQ client
 * that drives any broker speaking RocketMQ's protocol (modmq or Apache RocketMQ) through a name server.
 *
 * <pre>
 *   java -jar mq-bench.jar produce -n 127.0.0.1:9876 --mode sync -t 16 -s 1024 -w 5 -d 30
 *   java -jar mq-bench.jar consume -n 127.0.0.1:9876 -N 1000000
 *   java -jar mq-bench.jar e2e     -n 127.0.0.1:9876 --rate 20000
 *   java -jar mq-bench.jar replica -n 127.0.0.1:9876 --master 127.0.0.1:10911 --slave 127.0.0.1:10921
 *   java -jar mq-bench.jar failover -n 127.0.0.1:9876 --broker-name broker-a --fault kill --pid 4242
 *   java -jar mq-bench.jar timer    -n 127.0.0.1:9876 -N 1000000 --window 600 --broker-pid 4242
 *   java -jar mq-bench.jar delay    -n 127.0.0.1:9876 --level 1 -t 16 -w 5 -d 30
 *   java -jar mq-bench.jar transaction -n 127.0.0.1:9876 -t 16 --unknown-fraction 0.01
 *   java -jar mq-bench.jar fuzz     --broker 127.0.0.1:10911 -n 127.0.0.1:9876 -d 300
 *   java -jar mq-bench.jar crashloop -n 127.0.0.1:9876 --broker-cmd bin/mqbroker --broker-conf b.conf \
 *       --broker-addr 127.0.0.1:10911 --broker-log b.out --cycles 100
 * </pre>
 *
 * Reports go to stdout (text, one JSON line or one key=value line); progress lines, once per
 * second, go to stderr.
 */
@Command(name = "mq-bench", mixinStandardHelpOptions = true, version = "mq-bench 0.1.0 (rocketmq-client 5.3.3)",
        description = "Benchmarks a RocketMQ-protocol broker with the stock RocketMQ client.",
        subcommands = {ProduceCommand.class, ConsumeCommand.class, E2eCommand.class, ProbeCommand.class,
                ReplicaCommand.class, FailoverCommand.class, BacklogCommand.class, TimerCommand.class,
                DelayCommand.class, TransactionCommand.class, FuzzCommand.class, CrashLoopCommand.class, HelpCommand.class})
public final class BenchMain implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Runs the command line and exits with its code: 0 done, 1 the workload failed, 2 bad arguments. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured parser, for {@link #main} and tests. */
    static CommandLine commandLine() {
        return new CommandLine(new BenchMain()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing workload: produce, consume, e2e, probe, replica, failover, backlog, timer, delay, transaction, fuzz or crashloop");
    }
}
