package org.modmq.matrix;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the stock {@code mqadmin} of the module's line ({@code MQAdminStartup}, the same class name on
 * every line) as a separate JVM on the test class path, as an operator would from a shell, always with
 * {@code -n}. Its home is the test's directory: mqadmin 4.x configures logback from
 * {@code $ROCKETMQ_HOME/conf/logback_tools.xml} and runs no command without it. Thread-safe.
 */
final class MqAdminCli {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final String LOGBACK_TOOLS = """
            <configuration>
              <root level="OFF"/>
            </configuration>
            """;

    private MqAdminCli() {
    }

    /** Starts every command at once (each JVM mostly waits); the futures complete with their results. */
    static List<CompletableFuture<Result>> startAll(Path home, String namesrvAddr, List<List<String>> commands)
            throws IOException {
        Path conf = Files.createDirectories(home.resolve("conf"));
        Files.writeString(conf.resolve("logback_tools.xml"), LOGBACK_TOOLS, StandardCharsets.UTF_8);
        List<CompletableFuture<Result>> runs = new ArrayList<>();
        for (List<String> args : commands) {
            CompletableFuture<Result> run = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try {
                    run.complete(run(home, namesrvAddr, args));
                } catch (RuntimeException | AssertionError e) {
                    run.completeExceptionally(e);
                }
            }, "matrix-mqadmin");
            thread.setDaemon(true);
            thread.start();
            runs.add(run);
        }
        return runs;
    }

    /** The results of {@link #startAll}, in order, each bounded. */
    static List<Result> results(List<CompletableFuture<Result>> runs) throws Exception {
        List<Result> results = new ArrayList<>();
        for (CompletableFuture<Result> run : runs) {
            results.add(run.get(TIMEOUT.toSeconds() + 20, TimeUnit.SECONDS));
        }
        return results;
    }

    private static Result run(Path home, String namesrvAddr, List<String> args) {
        Path output = home.resolve("mqadmin-" + RUNS.incrementAndGet() + ".out");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Drocketmq.home.dir=" + home, "-Drocketmq.log.root=" + home.resolve("rocketmqlogs"),
                "-Drocketmq.log.level=warn", "-cp", testClassPath(),
                "org.apache.rocketmq.tools.command.MQAdminStartup"));
        command.addAll(args);
        command.addAll(List.of("-n", namesrvAddr));
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().remove("NAMESRV_ADDR");
        builder.environment().remove("ROCKETMQ_HOME");
        try {
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("mqadmin " + args + " did not finish within " + TIMEOUT + ":\n"
                        + Files.readString(output));
            }
            return new Result(args, process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running mqadmin", e);
        }
    }

    private static String testClassPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    /** One run: its arguments, exit status, and stdout with stderr. */
    record Result(List<String> args, int exitStatus, String output) {

        /** Non-blank trimmed lines, without the stock client's log lines. */
        List<String> lines() {
            return output.lines().map(String::trim).filter(line -> !line.isEmpty())
                    .filter(line -> !line.contains(" WARN ") && !line.contains(" INFO ")).toList();
        }

        /** The lines that start with {@code first}, split on whitespace. */
        List<String[]> rows(String first) {
            return lines().stream().filter(line -> line.startsWith(first + " ")).map(line -> line.split("\\s+"))
                    .toList();
        }

        @Override
        public String toString() {
            return "mqadmin " + String.join(" ", args) + " (exit " + exitStatus + "):\n" + output;
        }
    }
}
