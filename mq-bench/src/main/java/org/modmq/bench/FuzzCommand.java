package org.modmq.bench;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.modmq.fuzz.FuzzBudget;
import org.modmq.fuzz.FuzzReport;
import org.modmq.fuzz.FuzzRequest;
import org.modmq.fuzz.FuzzRun;
import org.modmq.fuzz.FuzzTarget;
import org.modmq.fuzz.FuzzWorld;
import org.modmq.fuzz.RequestCatalog;
import org.modmq.fuzz.RequestGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code fuzz} command: the generators of modmq's in-suite fuzz tests, run for longer against a
 * running broker and/or name server (each over its own raw connection, at the same time): well-formed
 * requests of every known code with missing and malformed header fields, spoiled bodies, spoiled
 * frames, unknown codes. Reports trials, requests sent, answers by response code, connections the
 * server closed and every failure (no answer, a close on a well-formed frame, a broken frame not
 * closed, the server no longer answering, and with {@code --check-stored} a refused request that changed
 * the CommitLog's end or the topics). Exit code 1 when anything failed.
 *
 * <p>It creates, updates and deletes topics, groups, configuration and registrations: aim it at a test
 * broker only. Loopback addresses only, unless {@code --allow-remote}.
 */
@Command(name = "fuzz", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Send generated malformed and well-formed requests to a broker and/or name server; report "
                + "answers, closes and failures.")
final class FuzzCommand implements Callable<Integer> {

    @Option(names = {"--broker"}, paramLabel = "HOST:PORT", description = "Broker to fuzz (its main port).")
    String broker;

    @Option(names = {"-n", "--namesrv"}, paramLabel = "HOST:PORT", description = "Name server to fuzz.")
    String namesrv;

    @Option(names = {"-d", "--duration"}, paramLabel = "SECONDS", defaultValue = "60",
            description = "Run this long against each target (default: ${DEFAULT-VALUE}).")
    int durationSeconds;

    @Option(names = {"-N", "--count"}, paramLabel = "N", defaultValue = "9223372036854775807",
            description = "Stop after this many trials per target (default: no limit).")
    long count;

    @Option(names = {"--seed"}, paramLabel = "SEED", description = "Seed of the run (default: a random one, printed).")
    Long seed;

    @Option(names = {"--answer-timeout"}, paramLabel = "MS", defaultValue = "5000",
            description = "Longest wait for an answer or a close (default: ${DEFAULT-VALUE}).")
    int answerTimeoutMillis;

    @Option(names = {"--check-stored"}, description = "Compare the broker's CommitLog end and topics (a name server's "
            + "clusters and topics) before and after every refused request. Only meaningful on a target nothing "
            + "else writes to: delayed, timer and transactional messages of earlier trials are written later.")
    boolean checkStored;

    @Option(names = {"--allow-remote"}, description = "Allow targets that are not loopback addresses.")
    boolean allowRemote;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<String[]> targets = new ArrayList<>();
        for (String[] target : new String[][] {{"broker", broker}, {"namesrv", namesrv}}) {
            if (target[1] != null) {
                targets.add(target);
            }
        }
        String error = targets.isEmpty() ? "name a target: --broker HOST:PORT and/or --namesrv HOST:PORT"
                : durationSeconds < 1 || count < 1 || answerTimeoutMillis < 1
                ? "--duration, --count and --answer-timeout must be at least 1" : null;
        for (int i = 0; error == null && i < targets.size(); i++) {
            error = checkAddress(targets.get(i)[1]);
        }
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
        long runSeed = seed != null ? seed : new SplittableRandom().nextLong();
        FuzzBudget budget = new FuzzBudget(count, Duration.ofSeconds(durationSeconds),
                Duration.ofMillis(answerTimeoutMillis));
        ExecutorService runs = Executors.newFixedThreadPool(targets.size());
        boolean failed = false;
        try {
            List<Future<FuzzReport>> reports = new ArrayList<>();
            for (String[] target : targets) {
                FuzzTarget fuzzTarget = target(target[0], target[1]);
                reports.add(runs.submit(() -> FuzzRun.run(fuzzTarget, budget, runSeed)));
            }
            for (int i = 0; i < targets.size(); i++) {
                FuzzReport report = reports.get(i).get();
                failed |= report.failureCount() > 0 || report.aborted();
                spec.commandLine().getOut().printf("== fuzz %s %s ==%n%s%n", targets.get(i)[0], targets.get(i)[1],
                        report.summary());
            }
        } catch (ExecutionException e) {
            throw new BenchException("fuzz run failed: " + e.getCause(), e.getCause());
        } finally {
            runs.shutdownNow();
        }
        spec.commandLine().getOut().flush();
        return failed ? 1 : 0;
    }

    private FuzzTarget target(String kind, String address) {
        int colon = address.lastIndexOf(':');
        String host = address.substring(0, colon);
        int port = Integer.parseInt(address.substring(colon + 1));
        boolean isBroker = kind.equals("broker");
        FuzzWorld world = isBroker ? FuzzWorld.defaults()
                : FuzzWorld.defaults().withConfigKeys(FuzzWorld.NAMESRV_CONFIG_KEYS);
        RequestGenerator generator = new RequestGenerator(isBroker ? RequestCatalog.BROKER : RequestCatalog.NAMESRV,
                world);
        int probeCode = isBroker ? 28 : 106;
        Supplier<Object> stored = !checkStored ? () -> null
                : isBroker ? () -> StockReplies.brokerState(host, port, answerTimeoutMillis)
                : () -> StockReplies.namesrvState(host, port, answerTimeoutMillis);
        return new FuzzTarget(host, port, generator, opaque -> FuzzRequest.of(probeCode, opaque, Map.of(), new byte[0]),
                stored, java.util.Set::of, !isBroker, StockReplies::jsonReply);
    }

    private String checkAddress(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0) {
            return "not HOST:PORT: " + address;
        }
        try {
            int port = Integer.parseInt(address.substring(colon + 1));
            if (port < 1 || port > 65_535) {
                return "bad port in " + address;
            }
            if (!allowRemote && !InetAddress.getByName(address.substring(0, colon)).isLoopbackAddress()) {
                return address + " is not a loopback address; the fuzzer changes what it reaches (--allow-remote)";
            }
            return null;
        } catch (NumberFormatException | UnknownHostException e) {
            return "bad address " + address + ": " + e.getMessage();
        }
    }
}
