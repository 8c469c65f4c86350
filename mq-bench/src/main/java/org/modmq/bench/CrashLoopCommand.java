package org.modmq.bench;

import java.io.File;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code crashloop} command: starts a broker as its own child process, puts a keyed sync-send load
 * on it with the stock producer, and {@code --cycles} times waits until the broker serves, lets it run
 * a random while, kills it with SIGKILL and starts it again on the same store. Then it reads the topic
 * back ({@link DeliveryAudit}) and reports acknowledged messages lost (must be 0), duplicates, and per
 * restart the time from launch to listening and to the first SEND_OK (p50, max).
 *
 * <p>Exit code 0 when every cycle served again and nothing acknowledged is missing, 1 otherwise.
 */
@Command(name = "crashloop", mixinStandardHelpOptions = true, sortOptions = false,
        description = "kill -9 a broker process over and over under sync-send load; count lost and duplicated "
                + "acknowledged messages and time each restart to serving.")
final class CrashLoopCommand implements Callable<Integer> {

    @Mixin
    CommonOptions common;

    @Option(names = "--broker-cmd", required = true, paramLabel = "PATH", description = "The broker launcher (bin/mqbroker).")
    String brokerCommand;

    @Option(names = "--broker-conf", required = true, paramLabel = "FILE", description = "Its broker.conf.")
    String brokerConf;

    @Option(names = "--broker-addr", required = true, paramLabel = "HOST:PORT", description = "Where the broker listens.")
    String brokerAddr;

    @Option(names = "--broker-log", required = true, paramLabel = "FILE", description = "Broker output is appended here.")
    File brokerLog;

    @Option(names = "--cycles", defaultValue = "100", description = "SIGKILLs (default ${DEFAULT-VALUE}).")
    int cycles;

    @Option(names = {"-t", "--threads"}, defaultValue = "4", description = "Sync send threads (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--up-min-ms", defaultValue = "300", description = "Least time serving before a kill.")
    long upMinMillis;

    @Option(names = "--up-max-ms", defaultValue = "1500", description = "Most time serving before a kill.")
    long upMaxMillis;

    @Option(names = "--serve-timeout", defaultValue = "60", paramLabel = "S", description = "Seconds a restart may take to serve.")
    long serveTimeoutSeconds;

    @Option(names = "--poll-name-server-ms", defaultValue = "1000", description = "The producer's route poll.")
    int pollNameServerMillis;

    @Option(names = "--verify-idle", defaultValue = "10", paramLabel = "S", description = "Read-back stops after this long without a new message.")
    long verifyIdleSeconds;

    @Option(names = "--verify-timeout", defaultValue = "180", paramLabel = "S", description = "Read-back deadline.")
    long verifyTimeoutSeconds;

    @Spec
    CommandSpec spec;

    private PrintWriter events;

    @Override
    public Integer call() throws Exception {
        validate();
        events = common.quiet ? new PrintWriter(PrintWriter.nullWriter()) : spec.commandLine().getErr();
        String topic = common.topicFor("crashloop");
        BenchClients clients = new BenchClients(common);
        SendLedger ledger = new SendLedger("cl" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL) + "-");
        LoadMeter meter = new LoadMeter();
        String[] hostPort = brokerAddr.split(":");
        BrokerProcess broker = new BrokerProcess(List.of(brokerCommand, "-c", brokerConf), brokerLog,
                new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])));
        DefaultMQProducer admin = clients.producer("crashloop-admin");
        DefaultMQProducer producer = clients.producer("crashloop");
        producer.setPollNameServerInterval(pollNameServerMillis);
        List<Long> listenMillis = new ArrayList<>();
        List<Long> serveMillis = new ArrayList<>();
        Map<String, String> extras = new LinkedHashMap<>();
        int served = 0;
        DeliveryAudit.Result audit;
        // Killed or interrupted (a time limit), this JVM still takes its broker child down with it.
        Thread reaper = new Thread(broker::killQuietly, "crashloop-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            admin.start();
            producer.start();
            byte[] body = new byte[common.size];
            ThreadLocalRandom.current().nextBytes(body);
            long launched = broker.start();
            meter.beginMeasuring();
            try (CrashLoopLoad load = new CrashLoopLoad(producer, topic, body, ledger, meter, 20)) {
                load.restarted(launched);
                load.start(threads);
                awaitServing(broker, load, launched, -1, null, null);
                for (int cycle = 1; cycle <= cycles; cycle++) {
                    Pacing.pause(TimeUnit.MILLISECONDS.toNanos(ThreadLocalRandom.current().nextLong(upMinMillis, upMaxMillis + 1)));
                    long pid = broker.pid();
                    broker.kill();
                    launched = broker.start();
                    load.restarted(launched);
                    if (!awaitServing(broker, load, launched, cycle, listenMillis, serveMillis)) {
                        event("cycle %d: the broker (pid %d, killed %d) did not serve within %d s; stopping", cycle,
                                broker.pid(), pid, serveTimeoutSeconds);
                        break;
                    }
                    served++;
                }
                meter.endMeasuring();
            }
            MQClientAPIImpl api = admin.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
            audit = new DeliveryAudit(clients, api).audit(topic, ledger, brokerAddr,
                    TimeUnit.SECONDS.toMillis(verifyIdleSeconds), TimeUnit.SECONDS.toMillis(verifyTimeoutSeconds));
        } finally {
            producer.shutdown();
            admin.shutdown();
            broker.stop(60);
            Runtime.getRuntime().removeShutdownHook(reaper);
        }
        extras.put("cycles", Integer.toString(cycles));
        extras.put("cycles_served", Integer.toString(served));
        extras.put("acknowledged", Long.toString(audit.acknowledged()));
        extras.put("lost", Long.toString(audit.missing()));
        extras.put("duplicates", Long.toString(audit.duplicates()));
        extras.put("unacknowledged_stored", Long.toString(audit.unacknowledgedStored()));
        extras.put("rows_read", Long.toString(audit.rowsRead()));
        extras.put("read_complete", Boolean.toString(audit.complete()));
        extras.put("sends_issued", Long.toString(ledger.issued()));
        extras.put("listen_ms_p50", percentile(listenMillis, 50));
        extras.put("listen_ms_max", percentile(listenMillis, 100));
        extras.put("serve_ms_p50", percentile(serveMillis, 50));
        extras.put("serve_ms_max", percentile(serveMillis, 100));
        extras.put("outcomes", ledger.outcomesBefore().toString().replace(' ', '_'));
        extras.put("threads", Integer.toString(threads));
        extras.put("topic", topic);
        spec.commandLine().getOut().print(common.format.format(BenchReport.of("crashloop", meter, "send", extras)));
        spec.commandLine().getOut().flush();
        return audit.missing() == 0 && served == cycles && audit.acknowledged() > 0 ? 0 : 1;
    }

    /**
     * Waits until the broker listens and a send started after its launch is acknowledged; records both
     * times (ms from the launch) for cycles above 0.
     */
    private boolean awaitServing(BrokerProcess broker, CrashLoopLoad load, long launched, int cycle,
                                 List<Long> listenMillis, List<Long> serveMillis) throws InterruptedException {
        long deadline = launched + TimeUnit.SECONDS.toNanos(serveTimeoutSeconds);
        long listening = broker.awaitListening(deadline);
        if (listening < 0) {
            return false;
        }
        long ok;
        while ((ok = load.firstOkSince()) < 0) {
            if (System.nanoTime() - deadline > 0 || !broker.alive()) {
                return false;
            }
            Pacing.pause(TimeUnit.MILLISECONDS.toNanos(1));
        }
        if (cycle > 0) {
            listenMillis.add(TimeUnit.NANOSECONDS.toMillis(listening - launched));
            serveMillis.add(TimeUnit.NANOSECONDS.toMillis(ok - launched));
            event("cycle %d: pid %d listening after %d ms, first SEND_OK after %d ms", cycle, broker.pid(),
                    listenMillis.get(listenMillis.size() - 1), serveMillis.get(serveMillis.size() - 1));
        }
        return true;
    }

    private static String percentile(List<Long> values, int percentile) {
        if (values.isEmpty()) {
            return "-1";
        }
        long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return Long.toString(sorted[Math.max(0, Math.min(sorted.length - 1, index))]);
    }

    private void event(String format, Object... args) {
        events.printf(Locale.ROOT, "[crashloop] " + format + "%n", args);
        events.flush();
    }

    private void validate() {
        String error = common.validate();
        if (error == null && (cycles < 1 || threads < 1)) {
            error = "--cycles and --threads must be at least 1";
        }
        if (error == null && (upMinMillis < 0 || upMaxMillis < upMinMillis)) {
            error = "--up-min-ms must be >= 0 and <= --up-max-ms";
        }
        if (error == null && !brokerAddr.matches("[^:]+:\\d+")) {
            error = "--broker-addr must be HOST:PORT";
        }
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
    }
}
