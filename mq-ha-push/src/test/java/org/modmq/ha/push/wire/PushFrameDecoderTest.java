package org.modmq.ha.push.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.testkit.NettyLeakCheck;

/** The decoder cuts frames however the bytes arrive and fails on impossible headers before buffering a body. */
@ExtendWith(NettyLeakCheck.class)
class PushFrameDecoderTest {

    @Test
    void cutsFramesArrivingByteByByte() {
        EmbeddedChannel channel = new EmbeddedChannel(new PushFrameDecoder(1024));
        ByteBuf stream = Unpooled.buffer();
        ByteBuf ackFrame = PushFrameLayout.ack(channel.alloc(), 5);
        stream.writeBytes(ackFrame);
        ackFrame.release();
        ByteBuf heartbeat = PushFrameLayout.heartbeat(channel.alloc(), 9, 2, 8);
        stream.writeBytes(heartbeat);
        heartbeat.release();
        while (stream.isReadable()) {
            channel.writeInbound(stream.readRetainedSlice(1));
        }
        stream.release();
        PushFrame ack = channel.readInbound();
        PushFrame beat = channel.readInbound();
        try {
            assertThat(ack.type()).isEqualTo(PushFrameLayout.ACK);
            assertThat(ack.offset()).isEqualTo(5);
            assertThat(beat.type()).isEqualTo(PushFrameLayout.HEARTBEAT);
            assertThat(PushFrameLayout.heartbeatConfirm(beat.body())).isEqualTo(8);
            assertThat((Object) channel.readInbound()).isNull();
        } finally {
            ack.release();
            beat.release();
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void failsOnUnknownTypesOversizedAndImpossibleBodies() {
        List<ByteBuf> headers = List.of(
                Unpooled.buffer().writeByte(42).writeLong(0).writeInt(0),
                Unpooled.buffer().writeByte(PushFrameLayout.DATA).writeLong(0).writeInt(4096),
                Unpooled.buffer().writeByte(PushFrameLayout.DATA).writeLong(0).writeInt(-1),
                Unpooled.buffer().writeByte(PushFrameLayout.DATA).writeLong(0).writeInt(3),
                Unpooled.buffer().writeByte(PushFrameLayout.ACK).writeLong(0).writeInt(8),
                Unpooled.buffer().writeByte(PushFrameLayout.HEARTBEAT).writeLong(0).writeInt(0),
                Unpooled.buffer().writeByte(PushFrameLayout.ACK).writeLong(-5).writeInt(0));
        for (ByteBuf header : headers) {
            EmbeddedChannel channel = new EmbeddedChannel(new PushFrameDecoder(1024));
            try {
                assertThatThrownBy(() -> channel.writeInbound(header)).isInstanceOf(CorruptedFrameException.class);
            } finally {
                channel.finishAndReleaseAll();
            }
        }
    }
}
