package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.assertSameLogsAndQueues;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.awaitCaughtUp;
import static org.modmq.ha.push.HaFixture.burst;
import static org.modmq.ha.push.HaFixture.bytesOf;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.ha.push.HaFixture.Node;
import org.modmq.ha.push.wire.Hello;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.modmq.ha.push.wire.Welcome;

/** Malformed or out-of-order frames close only the connection that sent them, and nothing is appended. */
@Tag("integration")
@Timeout(90)
class BadInputTest {

    private static final UnpooledByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    private static byte[] bytes(ByteBuf frame) {
        try {
            byte[] out = new byte[frame.readableBytes()];
            frame.getBytes(frame.readerIndex(), out);
            return out;
        } finally {
            frame.release();
        }
    }

    /** {@code frame} with one more body byte than its fields say. */
    private static ByteBuf longer(ByteBuf frame) {
        frame.setInt(PushFrameLayout.LENGTH_POSITION, frame.getInt(PushFrameLayout.LENGTH_POSITION) + 1);
        return frame.writeByte(1);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] out = new byte[first.length + second.length];
        System.arraycopy(first, 0, out, 0, first.length);
        System.arraycopy(second, 0, out, first.length, second.length);
        return out;
    }

    /** What a hostile or broken replica may send a master, by name. */
    private static Map<String, byte[]> badReplicaInput() {
        byte[] hello = bytes(new Hello(7, 0, 0, 0, 0, 0, List.of()).encode(ALLOC));
        Map<String, byte[]> inputs = new LinkedHashMap<>();
        inputs.put("unknown frame type", bytes(Unpooled.buffer().writeByte(99).writeLong(0).writeInt(4).writeInt(1)));
        inputs.put("bad magic", bytes(PushFrameLayout.header(ALLOC, PushFrameLayout.HELLO, 0, 6).writeInt(0xDEADBEEF)
                .writeShort(2)));
        inputs.put("version 1 hello", bytes(PushFrameLayout.header(ALLOC, PushFrameLayout.HELLO, 0, 14)
                .writeInt(PushFrameLayout.MAGIC).writeShort(1).writeInt(0).writeInt(0)));
        inputs.put("hello whose entries do not fit its length", bytes(longer(new Hello(7, 0, 0, 0, 0, 0,
                List.of()).encode(ALLOC))));
        inputs.put("oversized frame", bytes(Unpooled.buffer().writeByte(PushFrameLayout.DATA).writeLong(0)
                .writeInt(Integer.MAX_VALUE)));
        inputs.put("ack before hello", bytes(PushFrameLayout.ack(ALLOC, 0)));
        inputs.put("data from a replica", concat(hello, bytes(PushFrameLayout.dataHeader(ALLOC, 0, 4, 0, 0, 0)
                .writeInt(42))));
        inputs.put("ack beyond what was sent", concat(hello, bytes(PushFrameLayout.ack(ALLOC, 1L << 40))));
        return inputs;
    }

    @Test
    void badReplicaInputClosesOnlyThatConnection() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), "brokerRole", "ASYNC_MASTER");
             Node replica = fixture.open(root.resolve("replica"), "brokerRole", "SLAVE", "brokerId", "1",
                     "haMasterAddress", master.haAddress())) {
            burst(master.store(), 50, 300, "before");
            awaitCaughtUp(master, replica);
            long end = master.store().getCommitLogMaxOffset();
            for (Map.Entry<String, byte[]> input : badReplicaInput().entrySet()) {
                try (RawReplica raw = new RawReplica(master.haSocket())) {
                    raw.writeRaw(input.getValue());
                    assertThat(raw.closedByPeer(10_000)).as(input.getKey()).isTrue();
                }
            }
            await(() -> master.store().replicas().size() == 1, WAIT, "only the real replica to remain");
            assertThat(master.store().replicas().get(0).brokerId()).isEqualTo(1);
            assertThat(master.store().getCommitLogMaxOffset()).as("nothing appended").isEqualTo(end);
            burst(master.store(), 50, 300, "after");
            awaitCaughtUp(master, replica);
            assertSameLogsAndQueues(master, replica);
        }
    }

    @Test
    void badMasterInputLeavesTheReplicaLogUntouched() throws Exception {
        try (Node replica = fixture.open(root.resolve("replica"), "enableControllerMode", "true", "brokerId", "2");
             RawMaster fake = new RawMaster()) {
            replica.store().becomeMaster(1, 2);
            long end = burst(replica.store(), 20, 200, "own");
            byte[] before = bytesOf(replica.log());
            List<EpochEntry> epochs = replica.store().epochs();
            assertThat(epochs).containsExactly(new EpochEntry(1, 0));
            replica.store().becomeReplica(1, fake.address(), 2);

            List<EpochEntry> two = List.of(new EpochEntry(1, 0), new EpochEntry(2, end));
            Welcome fine = new Welcome(end + 1000, 1, end, end, end, epochs);
            Welcome fineInTwo = new Welcome(end + 1000, 2, end, end, end, two);
            byte[] payload = new byte[64];
            Map<String, Function<RawMaster.Connection, Void>> scenarios = new LinkedHashMap<>();
            List<String> failures = new ArrayList<>();
            scenarios.put("unknown frame type", c -> send(c, Unpooled.buffer().writeByte(77).writeLong(0).writeInt(0)));
            scenarios.put("a cut the consistent point does not allow", c -> send(c,
                    new Welcome(end + 1000, 2, 0, 100, 100, two).encode(ALLOC)));
            scenarios.put("a master older than the replica", c -> send(c,
                    new Welcome(end, 0, 0, end, end, List.of()).encode(ALLOC)));
            scenarios.put("data before the welcome", c -> data(c, end, 1, 0, payload));
            scenarios.put("data leaving a gap", c -> welcomeThenData(c, fine, end + 10, 1, 0, payload));
            scenarios.put("data of an older epoch", c -> welcomeThenData(c, fine, end, 0, 0, payload));
            scenarios.put("data of an epoch beyond the master's", c -> welcomeThenData(c, fine, end, 2, end, payload));
            scenarios.put("a new epoch starting inside this log", c -> welcomeThenData(c, fineInTwo, end, 2, end - 50,
                    payload));
            scenarios.put("a heartbeat of another epoch", c -> {
                send(c, fine.encode(ALLOC));
                return send(c, PushFrameLayout.heartbeat(ALLOC, end, 5, end));
            });
            scenarios.put("a welcome whose entries do not fit its length", c -> send(c, longer(fine.encode(ALLOC))));
            for (Map.Entry<String, Function<RawMaster.Connection, Void>> scenario : scenarios.entrySet()) {
                try (RawMaster.Connection connection = fake.accept()) {
                    Hello hello = connection.hello();
                    assertThat(hello.maxOffset()).isEqualTo(end);
                    assertThat(hello.epochs()).isEqualTo(epochs);
                    assertThat(hello.brokerId()).isEqualTo(2);
                    scenario.getValue().apply(connection);
                    if (!connection.closedByPeer()) {
                        failures.add(scenario.getKey());
                    }
                }
                assertThat(bytesOf(replica.log())).as(scenario.getKey()).isEqualTo(before);
                assertThat(replica.store().epochs()).as(scenario.getKey()).isEqualTo(epochs);
            }
            assertThat(failures).as("scenarios the replica did not close").isEmpty();
        }
    }

    private static Void send(RawMaster.Connection connection, ByteBuf frame) {
        try {
            connection.send(frame);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return null;
    }

    private static Void data(RawMaster.Connection connection, long offset, int epoch, long epochStart, byte[] payload) {
        try {
            connection.sendData(offset, epoch, epochStart, 0, payload);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return null;
    }

    private static Void welcomeThenData(RawMaster.Connection connection, Welcome welcome, long offset, int epoch,
                                        long epochStart, byte[] payload) {
        send(connection, welcome.encode(ALLOC));
        return data(connection, offset, epoch, epochStart, payload);
    }
}
