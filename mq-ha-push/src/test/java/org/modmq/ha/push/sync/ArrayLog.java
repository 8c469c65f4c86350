package org.modmq.ha.push.sync;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicatedLog;

/** A master's log in memory for the handshake tests: bytes from {@code minOffset}, an epoch history. */
final class ArrayLog implements ReplicatedLog {

    private final long minOffset;
    private final byte[] bytes;
    private final List<EpochEntry> epochs;

    ArrayLog(long minOffset, byte[] bytes, List<EpochEntry> epochs) {
        this.minOffset = minOffset;
        this.bytes = bytes.clone();
        this.epochs = new ArrayList<>(epochs);
    }

    /** {@code length} bytes whose value is their offset modulo 251, from {@code minOffset}. */
    static byte[] pattern(long minOffset, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) ((minOffset + i) % 251);
        }
        return out;
    }

    @Override
    public long maxOffset() {
        return minOffset + bytes.length;
    }

    @Override
    public long minOffset() {
        return minOffset;
    }

    @Override
    public ByteBuf read(long offset, int maxLength) {
        if (offset < minOffset || offset > maxOffset()) {
            throw new IndexOutOfBoundsException("offset " + offset);
        }
        int from = (int) (offset - minOffset);
        return Unpooled.wrappedBuffer(bytes, from, Math.min(maxLength, bytes.length - from));
    }

    @Override
    public void append(long offset, ByteBuf data) {
        throw new IllegalStateException("master");
    }

    @Override
    public void truncate(long offset) {
        throw new IllegalStateException("master");
    }

    @Override
    public List<EpochEntry> epochs() {
        return List.copyOf(epochs);
    }

    @Override
    public void startEpoch(EpochEntry entry) {
        throw new IllegalStateException("master");
    }

    @Override
    public long confirmOffset() {
        return maxOffset();
    }

    @Override
    public void confirm(long offset) {
        throw new IllegalStateException("master");
    }
}
