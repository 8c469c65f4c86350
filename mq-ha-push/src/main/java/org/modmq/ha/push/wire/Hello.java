package org.modmq.ha.push.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import java.util.Objects;
import org.modmq.api.spi.replication.EpochEntry;

/**
 * A replica's HELLO (see {@link PushFrameLayout}): who it is and what its log holds. Immutable.
 *
 * @param brokerId the replica's broker id, -1 when unknown
 * @param epoch the master epoch it was told to follow in (0: classic)
 * @param minOffset the first byte its log holds
 * @param maxOffset where its log ends (the next byte it needs)
 * @param checkLength bytes below {@code maxOffset} covered by {@code crc}
 * @param crc CRC-32 of {@code [maxOffset - checkLength, maxOffset)}
 * @param epochs its newest epoch entries, oldest first
 */
public record Hello(long brokerId, int epoch, long minOffset, long maxOffset, int checkLength, int crc,
                    List<EpochEntry> epochs) {

    public Hello {
        epochs = List.copyOf(Objects.requireNonNull(epochs, "epochs"));
        if (epochs.size() > PushFrameLayout.MAX_EPOCH_ENTRIES) {
            throw new IllegalArgumentException(epochs.size() + " epoch entries, limit "
                    + PushFrameLayout.MAX_EPOCH_ENTRIES);
        }
    }

    /** The newest epoch this replica knows: the one it follows in or the last of its history. */
    public int lastEpoch() {
        return Math.max(epoch, epochs.isEmpty() ? 0 : epochs.get(epochs.size() - 1).epoch());
    }

    /** The whole frame, header included. */
    public ByteBuf encode(ByteBufAllocator allocator) {
        int length = PushFrameLayout.HELLO_FIXED_LENGTH + epochs.size() * PushFrameLayout.EPOCH_ENTRY_LENGTH;
        ByteBuf out = PushFrameLayout.header(allocator, PushFrameLayout.HELLO, maxOffset, length)
                .writeInt(PushFrameLayout.MAGIC).writeShort(PushFrameLayout.VERSION).writeLong(brokerId)
                .writeInt(epoch).writeLong(minOffset).writeInt(checkLength).writeInt(crc).writeInt(epochs.size());
        EpochEntries.write(out, epochs);
        return out;
    }

    /**
     * Reads a HELLO frame.
     *
     * @throws MalformedFrameException when it is not a version-2 HELLO or a field is out of range (the
     *     message says which)
     */
    public static Hello decode(PushFrame frame) {
        ByteBuf body = frame.body();
        if (frame.type() != PushFrameLayout.HELLO) {
            throw new MalformedFrameException("expected a push HELLO frame, got type " + frame.type());
        }
        if (body.readableBytes() < PushFrameLayout.HELLO_VERSION + 2
                || body.getInt(body.readerIndex() + PushFrameLayout.HELLO_MAGIC) != PushFrameLayout.MAGIC) {
            throw new MalformedFrameException("HELLO without the push magic");
        }
        short version = body.getShort(body.readerIndex() + PushFrameLayout.HELLO_VERSION);
        if (version != PushFrameLayout.VERSION) {
            throw new MalformedFrameException("protocol version " + version + " unsupported, this side speaks "
                    + PushFrameLayout.VERSION);
        }
        if (body.readableBytes() < PushFrameLayout.HELLO_FIXED_LENGTH) {
            throw new MalformedFrameException("HELLO body of " + body.readableBytes() + " bytes, at least "
                    + PushFrameLayout.HELLO_FIXED_LENGTH + " expected");
        }
        int at = body.readerIndex();
        long brokerId = body.getLong(at + PushFrameLayout.HELLO_BROKER_ID);
        int epoch = body.getInt(at + PushFrameLayout.HELLO_EPOCH);
        long minOffset = body.getLong(at + PushFrameLayout.HELLO_MIN_OFFSET);
        int checkLength = body.getInt(at + PushFrameLayout.HELLO_CHECK_LENGTH);
        int crc = body.getInt(at + PushFrameLayout.HELLO_CRC);
        int count = body.getInt(at + PushFrameLayout.HELLO_ENTRY_COUNT);
        long maxOffset = frame.offset();
        if (brokerId < -1 || epoch < 0 || minOffset < 0 || maxOffset < minOffset || checkLength < 0
                || checkLength > PushFrameLayout.CHECK_LENGTH || checkLength > maxOffset - minOffset) {
            throw new MalformedFrameException("HELLO fields out of range: brokerId " + brokerId + ", epoch " + epoch
                    + ", offsets [" + minOffset + ", " + maxOffset + "), checkLength " + checkLength);
        }
        List<EpochEntry> epochs = EpochEntries.read(body, PushFrameLayout.HELLO_FIXED_LENGTH, count, "HELLO");
        return new Hello(brokerId, epoch, minOffset, maxOffset, checkLength, crc, epochs);
    }
}
