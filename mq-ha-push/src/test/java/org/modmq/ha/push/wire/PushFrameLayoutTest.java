package org.modmq.ha.push.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.testkit.NettyLeakCheck;

/** Every frame written by the layout, read back field by field at the documented positions. */
@ExtendWith(NettyLeakCheck.class)
class PushFrameLayoutTest {

    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;
    private static final List<EpochEntry> EPOCHS = List.of(new EpochEntry(1, 0), new EpochEntry(3, 4096),
            new EpochEntry(7, 1 << 20));

    /** The frame's body as a {@link PushFrame}, after checking the 13-byte header. */
    private static PushFrame frame(ByteBuf whole, byte type, long offset) {
        assertThat(whole.getByte(0)).as("type").isEqualTo(type);
        assertThat(whole.getLong(PushFrameLayout.OFFSET_POSITION)).as("offset").isEqualTo(offset);
        int length = whole.getInt(PushFrameLayout.LENGTH_POSITION);
        assertThat(whole.readableBytes()).as("header + length").isEqualTo(PushFrameLayout.HEADER_LENGTH + length);
        return new PushFrame(type, offset, whole.retainedSlice(PushFrameLayout.HEADER_LENGTH, length));
    }

    private static void assertEntries(ByteBuf body, int position, List<EpochEntry> expected) {
        for (int i = 0; i < expected.size(); i++) {
            int at = position + i * PushFrameLayout.EPOCH_ENTRY_LENGTH;
            assertThat(body.getInt(at)).as("entry " + i + " epoch").isEqualTo(expected.get(i).epoch());
            assertThat(body.getLong(at + 4)).as("entry " + i + " startOffset").isEqualTo(expected.get(i).startOffset());
        }
    }

    @Test
    void helloCarriesIdentityEpochsAndTail() {
        Hello hello = new Hello(2, 7, 4096, 1_500_000, 4096, 0xCAFEBABE, EPOCHS);
        ByteBuf whole = hello.encode(ALLOC);
        PushFrame frame = frame(whole, PushFrameLayout.HELLO, 1_500_000);
        try {
            ByteBuf body = frame.body();
            assertThat(body.readableBytes()).isEqualTo(38 + 3 * 12);
            assertThat(body.getInt(0)).as("magic").isEqualTo(0x4D515048);
            assertThat(body.getShort(4)).as("version").isEqualTo((short) 2);
            assertThat(body.getLong(6)).as("brokerId").isEqualTo(2);
            assertThat(body.getInt(14)).as("epoch").isEqualTo(7);
            assertThat(body.getLong(18)).as("minOffset").isEqualTo(4096);
            assertThat(body.getInt(26)).as("checkLength").isEqualTo(4096);
            assertThat(body.getInt(30)).as("crc32").isEqualTo(0xCAFEBABE);
            assertThat(body.getInt(34)).as("entryCount").isEqualTo(3);
            assertEntries(body, 38, EPOCHS);
            assertThat(Hello.decode(frame)).isEqualTo(hello);
            assertThat(hello.lastEpoch()).isEqualTo(7);
        } finally {
            frame.release();
            whole.release();
        }
    }

    @Test
    void welcomeCarriesTheMastersAnswer() {
        Welcome welcome = new Welcome(9_000, 7, 8_000, 4_500, 4_500, EPOCHS);
        ByteBuf whole = welcome.encode(ALLOC);
        PushFrame frame = frame(whole, PushFrameLayout.WELCOME, 9_000);
        try {
            ByteBuf body = frame.body();
            assertThat(body.readableBytes()).isEqualTo(32 + 3 * 12);
            assertThat(body.getInt(0)).as("epoch").isEqualTo(7);
            assertThat(body.getLong(4)).as("confirmOffset").isEqualTo(8_000);
            assertThat(body.getLong(12)).as("truncateOffset").isEqualTo(4_500);
            assertThat(body.getLong(20)).as("startOffset").isEqualTo(4_500);
            assertThat(body.getInt(28)).as("entryCount").isEqualTo(3);
            assertEntries(body, 32, EPOCHS);
            assertThat(Welcome.decode(frame)).isEqualTo(welcome);
        } finally {
            frame.release();
            whole.release();
        }
    }

    @Test
    void dataCarriesEpochEpochStartAndConfirmBeforeThePayload() {
        byte[] payload = "raw commitlog bytes".getBytes(StandardCharsets.US_ASCII);
        ByteBuf whole = PushFrameLayout.dataHeader(ALLOC, 123_456, payload.length, 7, 100_000, 120_000)
                .writeBytes(payload);
        PushFrame frame = frame(whole, PushFrameLayout.DATA, 123_456);
        try {
            ByteBuf body = frame.body();
            assertThat(body.readableBytes()).isEqualTo(20 + payload.length);
            assertThat(body.getInt(0)).as("epoch").isEqualTo(7);
            assertThat(body.getLong(4)).as("epochStartOffset").isEqualTo(100_000);
            assertThat(body.getLong(12)).as("confirmOffset").isEqualTo(120_000);
            assertThat(PushFrameLayout.dataEpoch(body)).isEqualTo(7);
            assertThat(PushFrameLayout.dataEpochStart(body)).isEqualTo(100_000);
            assertThat(PushFrameLayout.dataConfirm(body)).isEqualTo(120_000);
            assertThat(PushFrameLayout.dataPayload(body).toString(StandardCharsets.US_ASCII))
                    .isEqualTo("raw commitlog bytes");
        } finally {
            frame.release();
            whole.release();
        }
    }

    @Test
    void ackHeartbeatAndRefuse() {
        ByteBuf ack = PushFrameLayout.ack(ALLOC, 77);
        ByteBuf heartbeat = PushFrameLayout.heartbeat(ALLOC, 99, 4, 88);
        ByteBuf refuse = PushFrameLayout.refuse(ALLOC, 55, Refusal.STALE_MASTER, "epoch 3 < 4");
        PushFrame ackFrame = frame(ack, PushFrameLayout.ACK, 77);
        PushFrame heartbeatFrame = frame(heartbeat, PushFrameLayout.HEARTBEAT, 99);
        PushFrame refuseFrame = frame(refuse, PushFrameLayout.REFUSE, 55);
        try {
            assertThat(ackFrame.body().readableBytes()).isZero();
            assertThat(heartbeatFrame.body().getInt(0)).as("epoch").isEqualTo(4);
            assertThat(heartbeatFrame.body().getLong(4)).as("confirmOffset").isEqualTo(88);
            assertThat(PushFrameLayout.heartbeatEpoch(heartbeatFrame.body())).isEqualTo(4);
            assertThat(PushFrameLayout.heartbeatConfirm(heartbeatFrame.body())).isEqualTo(88);
            assertThat(refuseFrame.body().getByte(0)).as("reason").isEqualTo((byte) 4);
            assertThat(refuseFrame.refusal()).isEqualTo(Refusal.STALE_MASTER);
            assertThat(refuseFrame.refusalDetail()).isEqualTo("epoch 3 < 4");
        } finally {
            ackFrame.release();
            heartbeatFrame.release();
            refuseFrame.release();
            ack.release();
            heartbeat.release();
            refuse.release();
        }
    }

    @Test
    void refusalCodesAndWhichAreRetried() {
        assertThat(Refusal.values()).extracting(Refusal::code).containsExactly((byte) 1, (byte) 2, (byte) 3, (byte) 4,
                (byte) 5);
        assertThat(Refusal.values()).filteredOn(Refusal::retryable)
                .containsExactly(Refusal.STALE_MASTER, Refusal.NOT_MASTER);
        assertThat(Refusal.of((byte) 99)).isEqualTo(Refusal.PROTOCOL);
    }

    private static PushFrame helloFrame(ByteBuf body, long offset) {
        return new PushFrame(PushFrameLayout.HELLO, offset, body);
    }

    private static ByteBuf helloBody(short version, long brokerId, long minOffset, int count, int entries) {
        ByteBuf body = Unpooled.buffer().writeInt(PushFrameLayout.MAGIC).writeShort(version);
        body.writeLong(brokerId).writeInt(0).writeLong(minOffset).writeInt(0).writeInt(0).writeInt(count);
        for (int i = 0; i < entries; i++) {
            body.writeInt(i + 1).writeLong(i * 100L);
        }
        return body;
    }

    @Test
    void rejectsMalformedHellos() {
        List<PushFrame> bad = new ArrayList<>();
        bad.add(helloFrame(Unpooled.buffer().writeInt(PushFrameLayout.MAGIC).writeShort(PushFrameLayout.VERSION_1)
                .writeInt(0).writeInt(0), 0));
        bad.add(helloFrame(Unpooled.buffer().writeInt(0x12345678).writeShort(2), 0));
        bad.add(helloFrame(helloBody((short) 2, 1, 0, 2, 1), 500));
        bad.add(helloFrame(helloBody((short) 2, 1, 0, PushFrameLayout.MAX_EPOCH_ENTRIES + 1, 0), 500));
        bad.add(helloFrame(helloBody((short) 2, -2, 0, 0, 0), 500));
        bad.add(helloFrame(helloBody((short) 2, 1, 600, 0, 0), 500));
        ByteBuf decreasing = helloBody((short) 2, 1, 0, 2, 0).writeInt(2).writeLong(100).writeInt(1).writeLong(200);
        bad.add(helloFrame(decreasing, 500));
        for (PushFrame frame : bad) {
            try {
                assertThatThrownBy(() -> Hello.decode(frame)).isInstanceOf(MalformedFrameException.class);
            } finally {
                frame.release();
            }
        }
        PushFrame version1 = helloFrame(Unpooled.buffer().writeInt(PushFrameLayout.MAGIC).writeShort(1), 0);
        try {
            assertThatThrownBy(() -> Hello.decode(version1)).hasMessageContaining("version 1 unsupported");
        } finally {
            version1.release();
        }
    }

    @Test
    void rejectsAWelcomeStartingBeyondTheMastersEnd() {
        ByteBuf whole = new Welcome(100, 1, 0, 0, 0, List.of()).encode(ALLOC);
        whole.setLong(PushFrameLayout.HEADER_LENGTH + PushFrameLayout.WELCOME_START, 200);
        PushFrame frame = frame(whole, PushFrameLayout.WELCOME, 100);
        try {
            assertThatThrownBy(() -> Welcome.decode(frame)).isInstanceOf(MalformedFrameException.class)
                    .hasMessageContaining("start 200");
        } finally {
            frame.release();
            whole.release();
        }
    }

    @Test
    void newestKeepsTheLastEntriesWithinTheLimit() {
        List<EpochEntry> many = new ArrayList<>();
        for (int i = 1; i <= PushFrameLayout.MAX_EPOCH_ENTRIES + 5; i++) {
            many.add(new EpochEntry(i, i * 10L));
        }
        List<EpochEntry> newest = EpochEntries.newest(many);
        assertThat(newest).hasSize(PushFrameLayout.MAX_EPOCH_ENTRIES);
        assertThat(newest.get(0)).isEqualTo(new EpochEntry(6, 60));
        assertThat(newest.get(newest.size() - 1)).isEqualTo(many.get(many.size() - 1));
    }
}
