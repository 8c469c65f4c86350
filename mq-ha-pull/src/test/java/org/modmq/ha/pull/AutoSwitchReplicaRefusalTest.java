package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.pull.TestStores.controller;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.NettyLeakCheck;

/**
 * A server socket plays a misbehaving AutoSwitch master to a real controller-mode replica: every bad
 * answer closes the connection, nothing is appended or recorded, and the replica keeps redialing.
 */
@Tag("integration")
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class AutoSwitchReplicaRefusalTest {

    private static final String GOOD_ANSWER = "00000001 0000000C 0000000000000000 00000001 00000001 0000000000000000";

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }

    private static Socket accept(ServerSocket server) throws IOException {
        Socket socket = server.accept();
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static byte[] read(Socket socket, int n) throws IOException {
        byte[] bytes = new byte[n];
        new DataInputStream(socket.getInputStream()).readFully(bytes);
        return bytes;
    }

    private static boolean closedByPeer(Socket socket) throws IOException {
        try {
            int read;
            do {
                read = socket.getInputStream().read();
            } while (read >= 0);
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    void badAnswersCloseTheConnectionAndChangeNothing() throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
             HaNode replica = HaNode.open(dir.resolve("replica"), controller(2), scheduler)) {
            fake.setSoTimeout(10_000);
            replica.store.becomeReplica(1, "127.0.0.1:" + fake.getLocalPort(), 2);
            String[][] cases = {
                {"", "00000001 0000000D 0000000000000000 00000001 " + "00".repeat(13)},
                {GOOD_ANSWER, "00000002 0000000A 00000000000003E7 00000001 0000000000000000 0000000000000000"
                        + "00".repeat(10)},
                {GOOD_ANSWER, "00000002 00000000 0000000000000000 00000009 0000000000000000 0000000000000000"},
                {GOOD_ANSWER, "00000003 00000000 0000000000000000 00000001"},
                {GOOD_ANSWER, GOOD_ANSWER},
            };
            for (String[] exchange : cases) {
                try (Socket master = accept(fake)) {
                    assertThat(read(master, 16)).as("the replica's handshake")
                            .isEqualTo(hex("00000001 0000 0000 0000000000000002"));
                    OutputStream out = master.getOutputStream();
                    if (exchange[0].isEmpty()) {
                        out.write(hex(exchange[1]));
                    } else {
                        out.write(hex(exchange[0]));
                        assertThat(read(master, 12)).as("the replica's first report")
                                .isEqualTo(hex("00000002 0000000000000000"));
                        out.write(hex(exchange[1]));
                    }
                    out.flush();
                    assertThat(closedByPeer(master)).as(exchange[1]).isTrue();
                }
            }
            assertThat(replica.store.getCommitLogMaxOffset()).isZero();
            assertThat(replica.store.epochs()).isEmpty();
            assertThat(replica.strategy.followerState()).isNotEqualTo(MasterFollower.State.HALTED);
        }
    }
}
