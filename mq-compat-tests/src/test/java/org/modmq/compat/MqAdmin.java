package org.modmq.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the stock {@code mqadmin} (rocketmq-tools 5.3.3, {@code MQAdminStartup}) as a separate JVM on
 * this module's test class path, as an operator would from a shell, and captures what it prints.
 * Callers always pass {@code -n 127.0.0.1:port}. Stateless; safe from any test thread.
 */
final class MqAdmin {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final AtomicInteger RUNS = new AtomicInteger();

    private MqAdmin() {
    }

    /**
     * Runs {@code mqadmin <args>} in {@code workDir}.
     *
     * @return its exit status and output (stdout and stderr together)
     * @throws AssertionError if it does not finish within a minute
     */
    static Result run(Path workDir, String... args) {
        Path output = workDir.resolve("mqadmin-" + RUNS.incrementAndGet() + ".out");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.add("-Drocketmq.home.dir=" + workDir);
        command.add("-Drocketmq.log.root=" + workDir.resolve("rocketmqlogs"));
        command.add("-Drocketmq.log.level=warn");
        command.add("-cp");
        command.add(testClassPath());
        command.add("org.apache.rocketmq.tools.command.MQAdminStartup");
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().remove("NAMESRV_ADDR");
        builder.environment().remove("ROCKETMQ_HOME");
        try {
            Process process = builder.start();
            try {
                if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                    throw new AssertionError("mqadmin " + String.join(" ", args) + " did not finish within " + TIMEOUT
                            + "; output:\n" + read(output));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new AssertionError("interrupted while running mqadmin", e);
            }
            return new Result(process.exitValue(), read(output));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
    }

    /**
     * Runs several independent {@code mqadmin} commands at the same time (each JVM spends most of its
     * life waiting: start-up, then a 3 s stock-client shutdown), in {@code workDir}.
     *
     * @return their results, in the order of {@code commands}
     */
    static List<Result> runAll(Path workDir, List<String[]> commands) {
        List<CompletableFuture<Result>> runs = new ArrayList<>();
        for (String[] args : commands) {
            CompletableFuture<Result> run = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try {
                    run.complete(run(workDir, args));
                } catch (RuntimeException | AssertionError e) {
                    run.completeExceptionally(e);
                }
            }, "compat-mqadmin");
            thread.setDaemon(true);
            thread.start();
            runs.add(run);
        }
        List<Result> results = new ArrayList<>();
        for (CompletableFuture<Result> run : runs) {
            try {
                // run() itself is bounded by TIMEOUT; this only adds a margin.
                results.add(run.get(TIMEOUT.toSeconds() + 20, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while running mqadmin", e);
            } catch (ExecutionException e) {
                throw new AssertionError("mqadmin run failed", e.getCause());
            } catch (TimeoutException e) {
                throw new AssertionError("mqadmin run did not finish", e);
            }
        }
        return results;
    }

    private static String testClassPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    /**
     * What one {@code mqadmin} run did.
     *
     * @param exitStatus its exit status
     * @param output     stdout and stderr
     */
    record Result(int exitStatus, String output) {

        /** The output's non-blank lines, trimmed, without the stock client's log lines. */
        List<String> lines() {
            return output.lines().map(String::trim).filter(line -> !line.isEmpty())
                    .filter(line -> !line.contains(" WARN ") && !line.contains(" INFO ")).toList();
        }
    }
}
