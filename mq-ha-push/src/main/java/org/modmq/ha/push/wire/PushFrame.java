package org.modmq.ha.push.wire;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One decoded frame. The body is owned by whoever receives the frame, who calls {@link #release()}
 * exactly once.
 *
 * @param type one of the {@link PushFrameLayout} types
 * @param offset the header's offset field
 * @param body the body bytes (empty for ACK and HEARTBEAT)
 */
public record PushFrame(byte type, long offset, ByteBuf body) {

    public PushFrame {
        Objects.requireNonNull(body, "body");
    }

    /** Releases the body. */
    public void release() {
        ((ReferenceCounted) body).release();
    }

    /** The refusal reason of a REFUSE frame. */
    public Refusal refusal() {
        return body.isReadable() ? Refusal.of(body.getByte(body.readerIndex())) : Refusal.PROTOCOL;
    }

    /** The UTF-8 detail of a REFUSE frame. */
    public String refusalDetail() {
        return body.readableBytes() <= 1 ? ""
                : body.toString(body.readerIndex() + 1, body.readableBytes() - 1, StandardCharsets.UTF_8);
    }
}
