package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.pull.TestStores.SEGMENT;
import static org.modmq.ha.pull.TestStores.bytes;
import static org.modmq.ha.pull.TestStores.classicMaster;
import static org.modmq.ha.pull.TestStores.putMany;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigValues;
import org.modmq.testkit.NettyLeakCheck;

/** A raw socket plays a classic slave against a real store's master and checks every byte it sends. */
@Tag("integration")
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class ClassicWireFormatTest {

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private record Frame(long offset, byte[] body) {
    }

    private static Frame readFrame(DataInputStream in) throws IOException {
        long offset = in.readLong();
        int size = in.readInt();
        byte[] body = new byte[size];
        in.readFully(body);
        return new Frame(offset, body);
    }

    private HaNode master(ConfigValues values) {
        return HaNode.open(dir, values, scheduler);
    }

    private static Socket connect(HaNode master) throws IOException {
        Socket socket = new Socket("127.0.0.1", master.strategy.listenAddress().getPort());
        socket.setSoTimeout(10_000);
        return socket;
    }

    @Test
    void streamsFromZeroThenSendsHeartbeats() throws Exception {
        try (HaNode master = master(classicMaster("ASYNC_MASTER").with("haSendHeartbeatInterval", "200"))) {
            long end = putMany(master.store, "w-", 10, 100);
            assertThat(end).isLessThan(PullConfig.DEFAULT_BATCH);
            try (Socket socket = connect(master)) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                out.writeLong(0);
                out.flush();
                Frame data = readFrame(in);
                assertThat(data.offset()).isZero();
                assertThat(data.body()).isEqualTo(bytes(master.log(), 0, end));
                long before = System.nanoTime();
                Frame heartbeat = readFrame(in);
                assertThat(heartbeat.offset()).isEqualTo(end);
                assertThat(heartbeat.body()).isEmpty();
                assertThat((System.nanoTime() - before) / 1_000_000).isGreaterThanOrEqualTo(150);
                out.writeLong(end);
                out.flush();
                long more = putMany(master.store, "v-", 1, 100);
                Frame next = readFrame(in);
                while (next.body().length == 0) {
                    next = readFrame(in);
                }
                assertThat(next.offset()).isEqualTo(end);
                assertThat(next.body()).isEqualTo(bytes(master.log(), end, more));
            }
        }
    }

    @Test
    void framesAreBatchedAndNeverCrossASegmentEnd() throws Exception {
        try (HaNode master = master(classicMaster("ASYNC_MASTER"))) {
            long end = putMany(master.store, "big-", 1_300, 1_000);
            assertThat(end).isGreaterThan(SEGMENT);
            try (Socket socket = connect(master)) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                // A partial report first: the master must wait for all 8 bytes.
                out.writeInt(0);
                out.flush();
                out.writeInt(4096);
                out.flush();
                long at = 4096;
                while (at < end) {
                    Frame frame = readFrame(in);
                    if (frame.body().length == 0) {
                        continue;
                    }
                    assertThat(frame.offset()).isEqualTo(at);
                    assertThat(frame.body().length).isLessThanOrEqualTo(PullConfig.DEFAULT_BATCH);
                    long segmentEnd = at - at % SEGMENT + SEGMENT;
                    assertThat(at + frame.body().length).isLessThanOrEqualTo(segmentEnd);
                    assertThat(frame.body()).isEqualTo(bytes(master.log(), at, at + frame.body().length));
                    at += frame.body().length;
                }
                assertThat(at).isEqualTo(end);
            }
        }
    }

    @Test
    void emptySlaveGetsOnlyTheLastSegment() throws Exception {
        try (HaNode master = master(classicMaster("ASYNC_MASTER"))) {
            long end = putMany(master.store, "big-", 2_200, 1_000);
            long lastStart = end - end % SEGMENT;
            assertThat(lastStart).isEqualTo(2L * SEGMENT);
            try (Socket socket = connect(master)) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                new DataOutputStream(socket.getOutputStream()).writeLong(0);
                assertThat(readFrame(in).offset()).isEqualTo(lastStart);
            }
        }
    }

    @Test
    void slaveAheadOfTheMasterGetsOneEmptyFrameAndIsClosed() throws Exception {
        try (HaNode master = master(classicMaster("ASYNC_MASTER"))) {
            long end = putMany(master.store, "a-", 3, 100);
            try (Socket socket = connect(master)) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                new DataOutputStream(socket.getOutputStream()).writeLong(end + 1000);
                Frame frame = readFrame(in);
                assertThat(frame.offset()).isEqualTo(end);
                assertThat(frame.body()).isEmpty();
                assertThat(in.read()).isEqualTo(-1);
            } catch (EOFException e) {
                throw new AssertionError("expected one empty frame before the close", e);
            }
        }
    }

    @Test
    void silentSlaveIsClosedAfterTheHousekeepingInterval() throws Exception {
        try (HaNode master = master(classicMaster("ASYNC_MASTER").with("haHousekeepingInterval", "300"))) {
            try (Socket socket = connect(master)) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                new DataOutputStream(socket.getOutputStream()).writeLong(0);
                long started = System.nanoTime();
                int read;
                do {
                    read = in.read();
                } while (read != -1);
                assertThat((System.nanoTime() - started) / 1_000_000).isGreaterThanOrEqualTo(250);
            }
        }
    }
}
