package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.pull.LogAssertions.assertSameLog;
import static org.modmq.ha.pull.LogAssertions.assertSameQueues;
import static org.modmq.ha.pull.LogAssertions.caughtUp;
import static org.modmq.ha.pull.TestStores.SEGMENT;
import static org.modmq.ha.pull.TestStores.await;
import static org.modmq.ha.pull.TestStores.controller;
import static org.modmq.ha.pull.TestStores.putMany;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.testkit.NettyLeakCheck;

/**
 * A replica process is killed with SIGKILL in the middle of cutting its diverged tail (later CommitLog
 * files already deleted, the cut file's tail not yet zeroed, epochs and queues not yet cut); the next
 * open finishes the cut before anything reads the log, and the replica then follows its master to a
 * byte-identical log.
 */
@Tag("integration")
@Timeout(120)
@ExtendWith(NettyLeakCheck.class)
class TruncationCrashTest {

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void aTruncationCutByAKillIsFinishedAtTheNextOpen() throws Exception {
        Path aRoot = dir.resolve("a");
        try (HaNode b = HaNode.open(dir.resolve("b"), controller(2), scheduler)) {
            long common;
            long aEnd;
            try (HaNode a = HaNode.open(aRoot, controller(1), scheduler)) {
                a.store.becomeMaster(1, 1);
                b.store.becomeReplica(1, a.haAddress(), 2);
                common = putMany(a.store, "common-", 400, 1_000);
                await("b to reach " + common, () -> caughtUp(a.store, b.store, common));
                b.store.becomeReplica(1, null, 2);
                a.store.becomeMaster(2, 1);
                aEnd = putMany(a.store, "only-on-a-", 2_200, 1_000);
            }
            assertThat(aEnd).as("a's diverged tail reaches a third file").isGreaterThan(2L * SEGMENT);
            b.store.becomeMaster(3, 2);
            long end = putMany(b.store, "b-", 300, 800);

            List<String> lines = runUntilParked(aRoot, b.haAddress());
            assertThat(lines).last().asString().startsWith("PARKED 00000000000000000000");
            assertThat(aRoot.resolve("truncating")).as("killed inside the truncation").exists();
            assertThat(aRoot.resolve("commitlog").resolve(String.format("%020d", 2L * SEGMENT)))
                    .as("later files were already gone").doesNotExist();

            try (HaNode a = HaNode.open(aRoot, controller(1), scheduler)) {
                assertThat(a.store.getCommitLogMaxOffset()).as("the open finished the cut").isEqualTo(common);
                assertThat(a.store.epochs()).containsExactly(new EpochEntry(1, 0));
                assertThat(aRoot.resolve("truncating")).doesNotExist();
                assertThat(a.store.recoveryReport().abnormal()).isTrue();
                a.store.becomeReplica(3, b.haAddress(), 1);
                await("a to follow b to " + end, () -> caughtUp(b.store, a.store, end));
                assertSameLog(b.store, a.store, 0);
                assertSameQueues(b.store, a.store);
                assertThat(a.store.epochs()).isEqualTo(b.store.epochs())
                        .containsExactly(new EpochEntry(1, 0), new EpochEntry(3, common));
            }
        }
    }

    /** Starts the replica process, waits for it to park inside the truncation, kills it; its output lines. */
    private List<String> runUntilParked(Path root, String master) throws Exception {
        List<String> path = new ArrayList<>();
        path.add(Path.of("target", "test-classes").toAbsolutePath().toString());
        for (String property : new String[] {"jdk.module.path", "java.class.path"}) {
            for (String entry : System.getProperty(property, "").split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    path.add(entry);
                }
            }
        }
        Path stderr = dir.resolve("replica-child.err");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", String.join(File.pathSeparator, path), CrashingReplicaMain.class.getName(),
                root.toString(), master, "3", "1").redirectError(stderr.toFile()).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
                if (line.startsWith("PARKED")) {
                    break;
                }
            }
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(lines).as("child output; its stderr is in %s:%n%s", stderr,
                Files.exists(stderr) ? Files.readString(stderr) : "").anyMatch(l -> l.startsWith("PARKED"));
        return lines;
    }
}
