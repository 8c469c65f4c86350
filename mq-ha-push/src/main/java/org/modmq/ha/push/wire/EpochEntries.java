package org.modmq.ha.push.wire;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import org.modmq.api.spi.replication.EpochEntry;

/**
 * Epoch entries on the wire: 12 bytes each ({@code epoch} int32, {@code startOffset} int64), oldest
 * first, at most {@link PushFrameLayout#MAX_EPOCH_ENTRIES}. Stateless.
 */
public final class EpochEntries {

    private EpochEntries() {
    }

    /** The newest {@link PushFrameLayout#MAX_EPOCH_ENTRIES} of {@code history} (all when fewer). */
    public static List<EpochEntry> newest(List<EpochEntry> history) {
        int from = Math.max(0, history.size() - PushFrameLayout.MAX_EPOCH_ENTRIES);
        return List.copyOf(history.subList(from, history.size()));
    }

    /** Writes {@code entries} (at most the limit) to {@code out}. */
    static void write(ByteBuf out, List<EpochEntry> entries) {
        for (EpochEntry entry : entries) {
            out.writeInt(entry.epoch()).writeLong(entry.startOffset());
        }
    }

    /**
     * Reads {@code count} entries at {@code position} of {@code body}, which must end right after them.
     *
     * @throws MalformedFrameException when the count is outside [0, limit], the body's length does not
     *     match, or the entries are not strictly increasing in epoch and non-decreasing in start
     */
    static List<EpochEntry> read(ByteBuf body, int position, int count, String frame) {
        if (count < 0 || count > PushFrameLayout.MAX_EPOCH_ENTRIES) {
            throw new MalformedFrameException(frame + " carries " + count + " epoch entries, limit "
                    + PushFrameLayout.MAX_EPOCH_ENTRIES);
        }
        if (body.readableBytes() != position + count * PushFrameLayout.EPOCH_ENTRY_LENGTH) {
            throw new MalformedFrameException(frame + " body of " + body.readableBytes() + " bytes does not hold "
                    + count + " epoch entries after " + position + " bytes");
        }
        List<EpochEntry> entries = new ArrayList<>(count);
        EpochEntry previous = null;
        for (int i = 0; i < count; i++) {
            int at = body.readerIndex() + position + i * PushFrameLayout.EPOCH_ENTRY_LENGTH;
            int epoch = body.getInt(at);
            long start = body.getLong(at + 4);
            if (epoch <= 0 || start < 0) {
                throw new MalformedFrameException(frame + " epoch entry " + epoch + "@" + start + " is invalid");
            }
            EpochEntry entry = new EpochEntry(epoch, start);
            if (previous != null && (epoch <= previous.epoch() || start < previous.startOffset())) {
                throw new MalformedFrameException(frame + " epoch entry " + entry + " does not follow " + previous);
            }
            entries.add(entry);
            previous = entry;
        }
        return List.copyOf(entries);
    }
}
