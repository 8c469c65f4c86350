package org.modmq.bench;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.protocol.body.KVTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code replica} command: waits until a slave holds every byte its master has stored. It reads
 * {@code commitLogMaxOffset} from both brokers' GET_BROKER_RUNTIME_INFO every 20 ms and succeeds
 * once the master's is positive (with {@code --min-offset}, at least that) and the slave's has
 * reached it. Used by benchmark scripts to know a slave is connected and replicating before load
 * starts, and how long it takes to catch up after load stops.
 */
@Command(name = "replica", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Wait until a slave's CommitLog reaches its master's end (GET_BROKER_RUNTIME_INFO).")
final class ReplicaCommand implements Callable<Integer> {

    private static final String MAX_OFFSET = "commitLogMaxOffset";

    @Mixin
    CommonOptions common;

    @Option(names = {"--master"}, required = true, paramLabel = "HOST:PORT",
            description = "The master broker's address (its listenPort).")
    String master;

    @Option(names = {"--slave"}, required = true, paramLabel = "HOST:PORT",
            description = "The slave broker's address (its listenPort).")
    String slave;

    @Option(names = {"--min-offset"}, paramLabel = "BYTES", defaultValue = "1",
            description = "Wait until the master's CommitLog is at least this long, too (default: ${DEFAULT-VALUE}).")
    long minOffset;

    @Option(names = {"--timeout"}, paramLabel = "SECONDS", defaultValue = "60",
            description = "Give up after this many seconds (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String error = common.validate();
        if (error == null && (timeoutSeconds < 1 || minOffset < 0)) {
            error = "--timeout must be at least 1 and --min-offset not negative";
        }
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
        DefaultMQProducer client = new BenchClients(common).producer("replica");
        client.start();
        long started = System.nanoTime();
        long deadline = started + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        long masterOffset = -1;
        long slaveOffset = -1;
        try {
            MQClientAPIImpl api = client.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
            while (System.nanoTime() - deadline < 0) {
                masterOffset = maxOffset(api, master);
                slaveOffset = maxOffset(api, slave);
                if (masterOffset >= Math.max(1, minOffset) && slaveOffset >= masterOffset) {
                    break;
                }
                Pacing.pause(TimeUnit.MILLISECONDS.toNanos(20));
            }
        } finally {
            client.shutdown();
        }
        boolean caughtUp = masterOffset >= Math.max(1, minOffset) && slaveOffset >= masterOffset;
        double seconds = (System.nanoTime() - started) / 1e9;
        BenchReport report = new BenchReport("replica", 0, seconds, 0, caughtUp ? 0 : 1, null, Map.of(
                "caught_up", Boolean.toString(caughtUp), "master_offset", Long.toString(masterOffset),
                "slave_offset", Long.toString(slaveOffset),
                "wait_ms", Long.toString(Math.round(seconds * 1000))));
        spec.commandLine().getOut().print(common.format.format(report));
        spec.commandLine().getOut().flush();
        return caughtUp ? 0 : 1;
    }

    /** The broker's {@code commitLogMaxOffset}, or -1 while it cannot be read (not up yet, no such key). */
    private static long maxOffset(MQClientAPIImpl api, String address) throws InterruptedException {
        try {
            KVTable table = api.getBrokerRuntimeInfo(address, 3_000);
            String value = table.getTable().get(MAX_OFFSET);
            return value == null ? -1 : Long.parseLong(value.trim());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return -1;
        }
    }
}
