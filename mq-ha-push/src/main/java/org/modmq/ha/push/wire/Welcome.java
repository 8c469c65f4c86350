package org.modmq.ha.push.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import java.util.Objects;
import org.modmq.api.spi.replication.EpochEntry;

/**
 * A master's WELCOME (see {@link PushFrameLayout}): its epoch and history and where the replica cuts
 * and continues. Immutable.
 *
 * @param maxOffset the master's max offset when it answered
 * @param epoch the master's epoch (0: classic)
 * @param confirmOffset the master's confirm offset
 * @param truncateOffset the consistent point: the replica cuts its log there first
 * @param startOffset the offset of the first DATA byte the master sends
 * @param epochs the master's newest epoch entries, oldest first
 */
public record Welcome(long maxOffset, int epoch, long confirmOffset, long truncateOffset, long startOffset,
                      List<EpochEntry> epochs) {

    public Welcome {
        epochs = List.copyOf(Objects.requireNonNull(epochs, "epochs"));
        if (epochs.size() > PushFrameLayout.MAX_EPOCH_ENTRIES) {
            throw new IllegalArgumentException(epochs.size() + " epoch entries, limit "
                    + PushFrameLayout.MAX_EPOCH_ENTRIES);
        }
    }

    /** The whole frame, header included. */
    public ByteBuf encode(ByteBufAllocator allocator) {
        int length = PushFrameLayout.WELCOME_FIXED_LENGTH + epochs.size() * PushFrameLayout.EPOCH_ENTRY_LENGTH;
        ByteBuf out = PushFrameLayout.header(allocator, PushFrameLayout.WELCOME, maxOffset, length)
                .writeInt(epoch).writeLong(confirmOffset).writeLong(truncateOffset).writeLong(startOffset)
                .writeInt(epochs.size());
        EpochEntries.write(out, epochs);
        return out;
    }

    /**
     * Reads a WELCOME frame.
     *
     * @throws MalformedFrameException when a field is out of range or the length does not match the entries
     */
    public static Welcome decode(PushFrame frame) {
        ByteBuf body = frame.body();
        if (frame.type() != PushFrameLayout.WELCOME || body.readableBytes() < PushFrameLayout.WELCOME_FIXED_LENGTH) {
            throw new MalformedFrameException("expected a WELCOME frame of at least "
                    + PushFrameLayout.WELCOME_FIXED_LENGTH + " body bytes, got type " + frame.type() + " with "
                    + body.readableBytes());
        }
        int at = body.readerIndex();
        int epoch = body.getInt(at + PushFrameLayout.WELCOME_EPOCH);
        long confirm = body.getLong(at + PushFrameLayout.WELCOME_CONFIRM);
        long truncate = body.getLong(at + PushFrameLayout.WELCOME_TRUNCATE);
        long start = body.getLong(at + PushFrameLayout.WELCOME_START);
        int count = body.getInt(at + PushFrameLayout.WELCOME_ENTRY_COUNT);
        long max = frame.offset();
        if (epoch < 0 || confirm < 0 || truncate < 0 || start < 0 || start > max || truncate > max) {
            throw new MalformedFrameException("WELCOME fields out of range: epoch " + epoch + ", confirm " + confirm
                    + ", truncate " + truncate + ", start " + start + ", master max " + max);
        }
        List<EpochEntry> epochs = EpochEntries.read(body, PushFrameLayout.WELCOME_FIXED_LENGTH, count, "WELCOME");
        return new Welcome(max, epoch, confirm, truncate, start, epochs);
    }
}
