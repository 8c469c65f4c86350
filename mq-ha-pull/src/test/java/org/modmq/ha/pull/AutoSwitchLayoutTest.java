package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Every AutoSwitch frame against bytes written out by hand from RocketMQ 5.3.3's
 * {@code AutoSwitchHAClient} (handshake: state int, isSyncFromLastFile short, isAsyncLearner short,
 * slaveBrokerId long; report: state int, offset long) and {@code AutoSwitchHAConnection} (handshake header:
 * state, bodySize, maxPhyOffset, lastEpoch, then epoch int + startOffset long per entry; transfer header:
 * state, bodySize, offset, epoch, epochStartOffset, confirmOffset), big-endian, states by
 * {@code HAConnectionState} ordinal.
 */
@ExtendWith(NettyLeakCheck.class)
class AutoSwitchLayoutTest {

    private static final HexFormat HEX = HexFormat.of();

    private static byte[] hex(String spaced) {
        return HEX.parseHex(spaced.replace(" ", "").replace("|", ""));
    }

    private static Object next(EmbeddedChannel channel) {
        return channel.readInbound();
    }

    private static byte[] drain(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    @Test
    void statesKeepRocketMqsOrdinals() {
        assertThat(AutoSwitchState.READY.wireCode()).isZero();
        assertThat(AutoSwitchState.HANDSHAKE.wireCode()).isEqualTo(1);
        assertThat(AutoSwitchState.TRANSFER.wireCode()).isEqualTo(2);
        assertThat(AutoSwitchState.SUSPEND.wireCode()).isEqualTo(3);
        assertThat(AutoSwitchState.SHUTDOWN.wireCode()).isEqualTo(4);
        assertThat(AutoSwitchState.fromWire(2)).isEqualTo(AutoSwitchState.TRANSFER);
        assertThat(AutoSwitchState.fromWire(5)).isNull();
        assertThat(AutoSwitchState.fromWire(-1)).isNull();
    }

    @Test
    void fieldPositionsAreRocketMqs() {
        // AutoSwitchHAClient: HANDSHAKE_HEADER_SIZE = 4 + 4 + 8, TRANSFER_HEADER_SIZE = 4 + 8; the master reads
        // the broker id at HANDSHAKE_HEADER_SIZE - 8, the flags at - 12 and - 10, a report's offset at 4.
        assertThat(AutoSwitchSlaveLayout.HANDSHAKE_LENGTH).isEqualTo(16);
        assertThat(AutoSwitchSlaveLayout.REPORT_LENGTH).isEqualTo(12);
        assertThat(AutoSwitchSlaveLayout.BROKER_ID_OFFSET).isEqualTo(16 - 8);
        assertThat(AutoSwitchSlaveLayout.SYNC_FROM_LAST_FILE_OFFSET).isEqualTo(16 - 12);
        assertThat(AutoSwitchSlaveLayout.ASYNC_LEARNER_OFFSET).isEqualTo(16 - 10);
        assertThat(AutoSwitchSlaveLayout.MAX_OFFSET_OFFSET).isEqualTo(4);
        // AutoSwitchHAConnection: HANDSHAKE_HEADER_SIZE = 4 + 4 + 8 + 4, TRANSFER_HEADER_SIZE = that + 8 + 8,
        // EPOCH_ENTRY_SIZE = 12; the replica reads state, bodySize, offset, epoch at 20 - 20, - 16, - 12, - 4
        // and epochStartOffset, confirmOffset at 36 - 16, 36 - 8.
        assertThat(AutoSwitchMasterLayout.HANDSHAKE_HEADER_LENGTH).isEqualTo(20);
        assertThat(AutoSwitchMasterLayout.TRANSFER_HEADER_LENGTH).isEqualTo(36);
        assertThat(AutoSwitchMasterLayout.EPOCH_ENTRY_LENGTH).isEqualTo(12);
        assertThat(List.of(AutoSwitchMasterLayout.STATE_OFFSET, AutoSwitchMasterLayout.BODY_SIZE_OFFSET,
                AutoSwitchMasterLayout.OFFSET_OFFSET, AutoSwitchMasterLayout.EPOCH_OFFSET))
                .containsExactly(20 - 20, 20 - 16, 20 - 12, 20 - 4);
        assertThat(AutoSwitchMasterLayout.EPOCH_START_OFFSET).isEqualTo(36 - 16);
        assertThat(AutoSwitchMasterLayout.CONFIRM_OFFSET).isEqualTo(36 - 8);
    }

    @Test
    void replicaHandshakeBytes() {
        byte[] bytes = drain(AutoSwitchSlaveLayout.handshake(ByteBufAllocator.DEFAULT, true, false, 3));
        assertThat(bytes).isEqualTo(hex("00000001 | 0001 | 0000 | 0000000000000003"));
        assertThat(drain(AutoSwitchSlaveLayout.handshake(ByteBufAllocator.DEFAULT, false, true, 0x0102030405L)))
                .isEqualTo(hex("00000001 | 0000 | 0001 | 0000000102030405"));
    }

    @Test
    void replicaReportBytes() {
        assertThat(drain(AutoSwitchSlaveLayout.report(ByteBufAllocator.DEFAULT, 0x0A0B0C0D0EL)))
                .isEqualTo(hex("00000002 | 0000000A0B0C0D0E"));
    }

    @Test
    void masterHandshakeBytes() {
        byte[] bytes = drain(AutoSwitchMasterLayout.handshake(ByteBufAllocator.DEFAULT, 4096, 2,
                List.of(new EpochEntry(1, 0), new EpochEntry(2, 1000))));
        assertThat(bytes).isEqualTo(hex("00000001 | 00000018 | 0000000000001000 | 00000002"
                + "| 00000001 0000000000000000 | 00000002 00000000000003E8"));
        assertThat(drain(AutoSwitchMasterLayout.handshake(ByteBufAllocator.DEFAULT, 0, -1, List.of())))
                .isEqualTo(hex("00000001 | 00000000 | 0000000000000000 | FFFFFFFF"));
    }

    @Test
    void masterTransferHeaderBytes() {
        byte[] bytes = drain(AutoSwitchMasterLayout.transferHeader(ByteBufAllocator.DEFAULT, 1000, 5,
                new EpochEntry(2, 1000), 900));
        assertThat(bytes).isEqualTo(hex("00000002 | 00000005 | 00000000000003E8 | 00000002 | 00000000000003E8"
                + "| 0000000000000384"));
    }

    @Test
    void masterDecodesReplicaFramesFieldByField() {
        EmbeddedChannel channel = new EmbeddedChannel(new AutoSwitchSlaveDecoder());
        byte[] stream = hex("00000001 0001 0001 0000000000000007 | 00000002 0000000000001234"
                + "| 00000002 0000000000002000");
        // One byte at a time: frames are reassembled whatever the segmentation.
        for (byte b : stream) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        assertThat(next(channel)).isEqualTo(new SlaveFrame.Handshake(true, true, 7));
        assertThat(next(channel)).isEqualTo(new SlaveFrame.Report(0x1234));
        assertThat(next(channel)).isEqualTo(new SlaveFrame.Report(0x2000));
        assertThat(next(channel)).isNull();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void masterRefusesMalformedReplicaFrames() {
        for (String bad : List.of("00000005 0000000000000000", "00000000 0000000000000000",
                "00000001 0002 0000 0000000000000001", "00000001 0000 0000 FFFFFFFFFFFFFFFF",
                "00000002 8000000000000000")) {
            EmbeddedChannel channel = new EmbeddedChannel(new AutoSwitchSlaveDecoder());
            assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(hex(bad))))
                    .as(bad).isInstanceOf(CorruptedFrameException.class);
            channel.writeInbound(Unpooled.wrappedBuffer(hex("00000002 0000000000000001")));
            assertThat(next(channel)).as("nothing decoded after a refusal").isNull();
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void replicaDecodesMasterFramesFieldByField() {
        EmbeddedChannel channel = new EmbeddedChannel(new AutoSwitchMasterDecoder());
        byte[] stream = hex("00000001 00000018 0000000000001000 00000002 00000001 0000000000000000"
                + "00000002 00000000000003E8"
                + "| 00000002 00000003 00000000000003E8 00000002 00000000000003E8 0000000000000384 AABBCC"
                + "| 00000002 00000000 00000000000003EB 00000002 00000000000003E8 00000000000003EB");
        for (int i = 0; i < stream.length; i += 7) {
            channel.writeInbound(Unpooled.wrappedBuffer(stream, i, Math.min(7, stream.length - i)));
        }
        assertThat(next(channel)).isEqualTo(new MasterFrame.Handshake(4096, 2,
                List.of(new EpochEntry(1, 0), new EpochEntry(2, 1000))));
        MasterFrame.Transfer data = channel.readInbound();
        try {
            assertThat(data.offset()).isEqualTo(1000);
            assertThat(data.epoch()).isEqualTo(2);
            assertThat(data.epochStartOffset()).isEqualTo(1000);
            assertThat(data.confirmOffset()).isEqualTo(900);
            assertThat(ByteBufUtil.getBytes(data.body())).isEqualTo(hex("AABBCC"));
        } finally {
            data.body().release();
        }
        MasterFrame.Transfer heartbeat = channel.readInbound();
        try {
            assertThat(heartbeat.offset()).isEqualTo(1003);
            assertThat(heartbeat.size()).isZero();
            assertThat(heartbeat.confirmOffset()).isEqualTo(1003);
        } finally {
            heartbeat.body().release();
        }
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void replicaRefusesMalformedMasterFrames() {
        for (String bad : List.of(
                "00000003 00000000 0000000000000000 00000001",
                "00000001 0000000D 0000000000000000 00000001 00000001 0000000000000000 00",
                "00000001 00000018 0000000000000000 00000002 00000002 0000000000000000 00000001 0000000000000010",
                "00000001 0000000C 0000000000000000 00000003 00000001 0000000000000000",
                "00000001 0000000C 0000000000000000 00000000 00000000 0000000000000000",
                "00000002 7FFFFFFF 0000000000000000 00000001",
                "00000002 00000001 FFFFFFFFFFFFFFFF 00000001 0000000000000000 0000000000000000 00")) {
            EmbeddedChannel channel = new EmbeddedChannel(new AutoSwitchMasterDecoder());
            assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(hex(bad))))
                    .as(bad).isInstanceOf(CorruptedFrameException.class);
            assertThat(next(channel)).isNull();
            channel.finishAndReleaseAll();
        }
    }
}
