package org.modmq.store.epoch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.replication.EpochEntry;

class EpochFileTest {

    @TempDir
    Path root;

    private Path file() {
        return root.resolve(EpochFile.NAME);
    }

    @Test
    void writesRocketMqsEntryCheckpointFormat() throws Exception {
        new EpochFile(file()).write(List.of(new EpochEntry(7, 7000), new EpochEntry(8, 8000)));
        String body = "7-7000\n8-8000\n";
        CRC32 crc = new CRC32();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        int expectedCrc = (int) (crc.getValue() & 0x7FFFFFFF);
        assertThat(Files.readString(file())).isEqualTo("2\n" + expectedCrc + "\n" + body);
        assertThat(new EpochFile(file()).read()).containsExactly(new EpochEntry(7, 7000), new EpochEntry(8, 8000));
    }

    @Test
    void readsAFileRocketMqWrote() throws Exception {
        String body = "1-0\n2-4096\n";
        CRC32 crc = new CRC32();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        Files.writeString(file(), "2\n" + (int) (crc.getValue() & 0x7FFFFFFF) + "\n" + body);
        assertThat(new EpochFile(file()).read()).containsExactly(new EpochEntry(1, 0), new EpochEntry(2, 4096));
    }

    @Test
    void keepsThePreviousContentAsBackupAndFallsBackToIt() throws Exception {
        EpochFile epochs = new EpochFile(file());
        epochs.write(List.of(new EpochEntry(1, 0)));
        epochs.write(List.of(new EpochEntry(1, 0), new EpochEntry(2, 100)));
        assertThat(Files.readString(root.resolve(EpochFile.NAME + ".bak"))).startsWith("1\n");
        Files.writeString(file(), "2\n12345\n1-0\n2-100\n");
        assertThat(epochs.read()).containsExactly(new EpochEntry(1, 0));
    }

    @Test
    void writesAnEmptyHistoryInsteadOfKeepingAStaleOne() throws Exception {
        EpochFile epochs = new EpochFile(file());
        epochs.write(List.of(new EpochEntry(3, 10)));
        epochs.write(List.of());
        assertThat(Files.readString(file())).isEqualTo("0\n0\n");
        assertThat(epochs.read()).isEmpty();
    }

    @Test
    void failsClearlyWhenBothCopiesAreBroken() throws Exception {
        Files.writeString(file(), "garbage");
        Files.writeString(root.resolve(EpochFile.NAME + ".bak"), "also garbage");
        assertThatThrownBy(() -> new EpochFile(file()).read()).hasMessageContaining(EpochFile.NAME);
    }

    @Test
    void historyRefusesEntriesThatDoNotFollowAndTruncatesBySuffixAndPrefix() {
        EpochHistory history = new EpochHistory(new EpochFile(file()));
        history.append(new EpochEntry(1, 0));
        history.append(new EpochEntry(3, 500));
        history.append(new EpochEntry(3, 500));
        assertThatThrownBy(() -> history.append(new EpochEntry(2, 600))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> history.append(new EpochEntry(4, 400))).isInstanceOf(IllegalArgumentException.class);
        history.append(new EpochEntry(5, 900));
        assertThat(history.truncateFrom(900)).isTrue();
        assertThat(history.lastEpoch()).isEqualTo(3);
        assertThat(history.truncateBelow(600)).isTrue();
        assertThat(new EpochHistory(new EpochFile(file())).entries()).containsExactly(new EpochEntry(3, 500));
    }
}
