package org.modmq.broker.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimerLogTest {

    @TempDir
    Path dir;

    private static TimerRecord record(int i) {
        return new TimerRecord(i - 1, 1_000L * i, 1_000L * i + 5, 200L * i, 200);
    }

    private List<Long> slots(TimerLog log) {
        List<Long> slots = new ArrayList<>();
        log.scan(log.start(), log.end(), (record, position) -> slots.add(record.slotMs() / 1_000));
        return slots;
    }

    private long files() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.count();
        }
    }

    @Test
    void appendsAcrossSegmentsAndReadsBackAfterReopening() throws IOException {
        try (TimerLog log = new TimerLog(dir, 4)) {
            for (int i = 0; i < 10; i++) {
                assertThat(log.append(record(i))).isEqualTo((long) i * TimerRecord.SIZE);
            }
            log.force();
        }
        assertThat(files()).isEqualTo(3);
        try (TimerLog log = new TimerLog(dir, 4)) {
            assertThat(log.end()).isEqualTo(10L * TimerRecord.SIZE);
            assertThat(log.read(5L * TimerRecord.SIZE)).isEqualTo(record(5));
            assertThat(log.read(10L * TimerRecord.SIZE)).isNull();
            assertThat(log.read(7)).isNull();
            assertThat(slots(log)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        }
    }

    @Test
    void aTornOrCorruptTailIsCutOffAtOpen() throws IOException {
        try (TimerLog log = new TimerLog(dir, 4)) {
            for (int i = 0; i < 6; i++) {
                log.append(record(i));
            }
        }
        Path last = dir.resolve(String.format("%020d", 4L * TimerRecord.SIZE));
        byte[] bytes = Files.readAllBytes(last);
        bytes[TimerRecord.SIZE + 20] ^= 0x5A;
        Files.write(last, bytes);
        Files.write(last, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
        try (TimerLog log = new TimerLog(dir, 4)) {
            assertThat(log.end()).isEqualTo(5L * TimerRecord.SIZE);
            assertThat(log.append(record(9))).isEqualTo(5L * TimerRecord.SIZE);
            assertThat(slots(log)).containsExactly(0L, 1L, 2L, 3L, 4L, 9L);
        }
    }

    @Test
    void truncatesBackOverASegmentBoundaryAndDeletesWholeSegmentsFromTheFront() throws IOException {
        try (TimerLog log = new TimerLog(dir, 4)) {
            for (int i = 0; i < 10; i++) {
                log.append(record(i));
            }
            log.truncate(3L * TimerRecord.SIZE);
            assertThat(log.end()).isEqualTo(3L * TimerRecord.SIZE);
            assertThat(files()).isEqualTo(1);
            for (int i = 3; i < 10; i++) {
                log.append(record(i + 10));
            }
            assertThat(slots(log)).containsExactly(0L, 1L, 2L, 13L, 14L, 15L, 16L, 17L, 18L, 19L);
            assertThat(log.deleteBefore(9L * TimerRecord.SIZE)).containsExactly(0L, 4L * TimerRecord.SIZE);
            assertThat(log.start()).isEqualTo(8L * TimerRecord.SIZE);
            assertThat(slots(log)).containsExactly(18L, 19L);
        }
    }

    @Test
    void aDamagedCheckpointReadsAsNone() throws IOException {
        Path file = dir.resolve("checkpoint");
        new TimerCheckpoint(100, 64, 7, 1_000, 480).write(file);
        assertThat(TimerCheckpoint.read(file)).contains(new TimerCheckpoint(100, 64, 7, 1_000, 480));
        byte[] bytes = Files.readAllBytes(file);
        bytes[20] ^= 1;
        Files.write(file, bytes);
        assertThat(TimerCheckpoint.read(file)).isEmpty();
        assertThat(TimerCheckpoint.read(dir.resolve("absent"))).isEmpty();
    }
}
