package org.modmq.testkit.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfFileTest {

    @TempDir
    Path dir;

    @Test
    void writesKeyValueLinesInOrderUnderTheHeader() throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("listenPort", "10911");
        settings.put("brokerName", "broker-a");
        settings.put("namesrvAddr", "127.0.0.1:1;127.0.0.1:2");
        Path file = ConfFile.write(dir.resolve("new/sub"), "broker.conf", settings);

        assertThat(file).isEqualTo(dir.resolve("new/sub/broker.conf"));
        assertThat(Files.readAllLines(file)).containsExactly(ConfFile.HEADER, "listenPort=10911",
                "brokerName=broker-a", "namesrvAddr=127.0.0.1:1;127.0.0.1:2");
    }

    @Test
    void replacesAnEarlierFile() throws Exception {
        ConfFile.write(dir, "a.conf", Map.of("k", "1"));
        Path file = ConfFile.write(dir, "a.conf", Map.of("k", "2"));
        assertThat(Files.readAllLines(file)).containsExactly(ConfFile.HEADER, "k=2");
    }
}
