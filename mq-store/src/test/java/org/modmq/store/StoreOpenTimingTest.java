package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.PutStatus;
import org.modmq.api.spi.PluginContext;

/**
 * Where a store open spends its time after a crash, on a store of a few hundred MB (the crash loop's
 * settings: 64 MiB CommitLog segments, default ConsumeQueue and index sizes, 1 KiB messages with a key,
 * one topic of 8 queues). A measurement, not a check: it prints each phase (System.nanoTime) and asserts
 * nothing about time. Off by default; run with {@code -Dmodmq.openTiming=true} (and
 * {@code -Dmodmq.openTiming.mb=N}, default 300, {@code -Dmodmq.openTiming.backend=mmap|direct}).
 *
 * <p>The crash: the writing store is abandoned without a close (its scheduler stopped), as a kill -9
 * leaves the files: the abort file present, the checkpoint from the last logics flush. Later opens put the
 * abort file back after a clean close, so recovery walks as after a crash but finds little to re-dispatch.
 */
@EnabledIfSystemProperty(named = "modmq.openTiming", matches = "true")
class StoreOpenTimingTest {

    private static final int MESSAGE = 1024;
    private static ResourceLeakDetector.Level leakLevel;

    @TempDir
    Path root;

    /** Netty's default level, as in the broker: the suite's paranoid level costs a stack trace per buffer. */
    @BeforeAll
    static void productionLeakLevel() {
        leakLevel = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
    }

    @AfterAll
    static void restoreLeakLevel() {
        ResourceLeakDetector.setLevel(leakLevel);
    }

    private ConfigValues config() {
        return ConfigValues.of(Map.of("storeBackend", System.getProperty("modmq.openTiming.backend", "mmap"),
                "flushDiskType", "ASYNC_FLUSH", "storePathRootDir", root.toString(),
                "mappedFileSizeCommitLog", Integer.toString(64 << 20)));
    }

    /** One open in a child JVM ({@link StoreOpenMain}): the phases it printed. */
    private Map<String, Double> coldOpen() throws Exception {
        List<String> path = new ArrayList<>();
        path.add(Path.of("target", "test-classes").toAbsolutePath().toString());
        for (String property : new String[] {"jdk.module.path", "java.class.path"}) {
            for (String entry : System.getProperty(property, "").split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    path.add(entry);
                }
            }
        }
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(File.pathSeparator, path), StoreOpenMain.class.getName(),
                System.getProperty("modmq.openTiming.backend", "mmap"), root.toString(), Integer.toString(64 << 20))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Map<String, Double> phases = new LinkedHashMap<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.startsWith("PHASE ")) {
                    String[] parts = line.split(" ", 3);
                    phases.put(parts[2], Double.parseDouble(parts[1]));
                }
            }
        } finally {
            assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(child.exitValue()).isZero();
        return phases;
    }

    @Test
    void printsThePhasesOfAnOpenAfterACrash() throws Exception {
        long bytes = Long.getLong("modmq.openTiming.mb", 300) << 20;
        ScheduledExecutorService writerScheduler = Executors.newScheduledThreadPool(2);
        MessageStore writer = MessageStore.open(config(),
                new PluginContext(Clock.systemUTC(), writerScheduler, ByteBufAllocator.DEFAULT, root));
        String pad = "b".repeat(MESSAGE - 120);
        long started = System.nanoTime();
        for (int i = 0; writer.getCommitLogMaxOffset() < bytes; i++) {
            PutResult put = writer.putMessage(TestMessages.message("OpenTiming", i % 8, i + pad, "TagA", "key-" + i))
                    .get(30, TimeUnit.SECONDS);
            assertThat(put.status()).isEqualTo(PutStatus.PUT_OK);
        }
        System.out.printf("[open-timing] wrote %d MB in %.1f s%n", writer.getCommitLogMaxOffset() >> 20,
                (System.nanoTime() - started) / 1e9);
        // Writes go on until the crash, so the checkpoint lags as after a kill -9 under load.
        long crashAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1700);
        for (int i = 0; System.nanoTime() < crashAt; i++) {
            writer.putMessage(TestMessages.message("OpenTiming", i % 8, "late" + i + pad, "TagA", "late-" + i))
                    .get(30, TimeUnit.SECONDS);
        }
        // kill -9: no close; the scheduler's flushes stop, the files stay as they are.
        writerScheduler.shutdownNow();
        assertThat(root.resolve("abort")).exists();

        List<Map<String, Double>> runs = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
            long t0 = System.nanoTime();
            MessageStore store = MessageStore.open(config(),
                    new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root));
            double total = (System.nanoTime() - t0) / 1e6;
            Map<String, Double> phases = new LinkedHashMap<>(store.openPhases());
            phases.put("TOTAL (MessageStore.open)", total);
            runs.add(phases);
            assertThat(store.recoveryReport().abnormal()).isTrue();
            store.close();
            scheduler.shutdownNow();
            Files.createFile(root.resolve("abort"));
        }
        for (int run = 0; run < 2; run++) {
            runs.add(coldOpen());
        }
        for (int run = 0; run < runs.size(); run++) {
            System.out.printf("[open-timing] open %d (%s)%n", run, run == 0 ? "after the abandoned writer"
                    : run < 3 ? "abort file put back after a clean close" : "the same, in a fresh JVM");
            runs.get(run).forEach((phase, ms) -> System.out.printf("[open-timing]   %-60s %8.1f ms%n", phase, ms));
        }
    }
}
