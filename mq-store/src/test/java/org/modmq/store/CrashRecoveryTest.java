package org.modmq.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.StoredMessage;
import org.modmq.api.spi.PluginContext;
import org.modmq.store.format.MessageDecoder;
import org.modmq.testkit.NettyLeakCheck;

/** Kills a writing child JVM with SIGKILL and checks that recovery keeps every acknowledged message. */
@Tag("integration")
@Timeout(120)
@ExtendWith(NettyLeakCheck.class)
class CrashRecoveryTest {

    private static final int ACKS = 300;

    @TempDir
    Path root;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    static ConfigValues config(String backend, Path root) {
        return ConfigValues.of(Map.of("storeBackend", backend, "flushDiskType", "SYNC_FLUSH",
                "storePathRootDir", root.toString(), "mappedFileSizeCommitLog", "65536",
                "mappedFileSizeConsumeQueue", "81920", "maxHashSlotNum", "256", "maxIndexNum", "4096"));
    }

    private record Ack(long commitLogOffset, long queueOffset, String body) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"mmap", "direct"})
    void keepsEveryAcknowledgedMessage(String backend) throws Exception {
        List<String> path = new ArrayList<>();
        path.add(Path.of("target", "test-classes").toAbsolutePath().toString());
        for (String property : new String[] {"jdk.module.path", "java.class.path"}) {
            String value = System.getProperty(property, "");
            for (String entry : value.split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    path.add(entry);
                }
            }
        }
        Path stderr = root.resolveSibling(root.getFileName() + "-child.err");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(File.pathSeparator, path), CrashWriterMain.class.getName(), backend, root.toString())
                .redirectError(stderr.toFile()).start();
        List<Ack> acks = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while (acks.size() < ACKS && (line = lines.readLine()) != null) {
                String[] parts = line.split(" ", 4);
                acks.add(new Ack(Long.parseLong(parts[1]), Long.parseLong(parts[2]), parts[3]));
            }
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(acks).as("acknowledgements before the kill; child stderr in %s", stderr).hasSize(ACKS);
        assertThat(root.resolve("abort")).exists();

        PluginContext context = new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root);
        try (MessageStore store = MessageStore.open(config(backend, root), context)) {
            assertThat(store.recoveryReport().abnormal()).isTrue();
            long max = store.getMaxOffsetInQueue("CrashTopic", 0);
            assertThat(max).isGreaterThanOrEqualTo(ACKS);
            for (Ack ack : acks) {
                try (GetMessageResult read = store.getMessages("CrashTopic", 0, ack.queueOffset(), 1, t -> true, 1 << 20)) {
                    ByteBuf record = read.messages().get(0);
                    StoredMessage stored = MessageDecoder.decode(record, record.readerIndex(), true);
                    assertThat(stored.commitLogOffset()).isEqualTo(ack.commitLogOffset());
                    assertThat(new String(stored.message().body(), StandardCharsets.UTF_8)).isEqualTo(ack.body());
                }
            }
            long end = 0;
            for (long offset = 0; offset < max; offset++) {
                try (GetMessageResult read = store.getMessages("CrashTopic", 0, offset, 1, t -> true, 1 << 20)) {
                    ByteBuf record = read.messages().get(0);
                    StoredMessage stored = MessageDecoder.decode(record, record.readerIndex(), true);
                    assertThat(stored.queueOffset()).isEqualTo(offset);
                    end = stored.commitLogOffset() + stored.storeSize();
                }
            }
            assertThat(store.getCommitLogMaxOffset()).as("torn tail removed").isEqualTo(end);
            assertThat(store.putMessage(TestMessages.message("CrashTopic", 0, "after")).get(10, TimeUnit.SECONDS)
                    .queueOffset()).isEqualTo(max);
        }
        Files.deleteIfExists(stderr);
    }
}
