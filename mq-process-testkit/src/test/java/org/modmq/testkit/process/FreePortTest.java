package org.modmq.testkit.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class FreePortTest {

    @Test
    void picksDistinctPorts() {
        int[] ports = FreePort.pick(5);
        assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(5);
        assertThat(Arrays.stream(ports).allMatch(port -> port >= 1 && port <= 65535)).isTrue();
        assertThatThrownBy(() -> FreePort.pick(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void picksBelowTheEphemeralRangeWhereThereIsRoomForIt() {
        int low = FreePort.ephemeralRangeLow();
        int[] ports = FreePort.pick(20);
        if (low - 10_000 >= 1_000) {
            assertThat(Arrays.stream(ports).allMatch(port -> port >= 10_000 && port < low)).isTrue();
        }
    }

    @Test
    void readsTheWholeEphemeralRangeFile() throws Exception {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        assumeTrue(Files.isReadable(range), "no " + range);
        String low;
        try (InputStream in = Files.newInputStream(range)) {
            low = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+")[0];
        }
        assertThat(FreePort.ephemeralRangeLow()).isEqualTo(Integer.parseInt(low));
    }

    @Test
    void acceptsOnlyWhileSomethingListens() throws Exception {
        int port;
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            port = server.getLocalPort();
            assertThat(FreePort.accepts(port)).isTrue();
        }
        assertThat(FreePort.accepts(port)).isFalse();
    }

    @Test
    void picksARunWithItsNeighbours() {
        int port = FreePort.pickRun(2, 1);
        assertThat(port).isBetween(1026, 65534);
        assertThatThrownBy(() -> FreePort.pickRun(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
