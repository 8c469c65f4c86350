package org.modmq.store.log;

import io.netty.buffer.ByteBuf;
import org.modmq.store.format.MessageLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds where the last whole record ends in bytes appended by replication. Record headers inside the bytes
 * just appended are read from the caller's buffer; only one that starts before them (a record split across
 * two transfers) is read back from the log, since a read of the log costs a view of its mapping.
 * Not thread-safe; one use.
 */
final class RecordBoundaryScanner {

    private static final Logger LOG = LoggerFactory.getLogger(RecordBoundaryScanner.class);

    private final CommitLog log;
    private final int capacity;
    private final ByteBuf appended;
    private final long appendedStart;

    /**
     * @param appended the bytes just appended, readable from their reader index; not released here
     * @param appendedStart the log offset of {@code appended}'s first readable byte
     */
    RecordBoundaryScanner(CommitLog log, int capacity, ByteBuf appended, long appendedStart) {
        this.log = log;
        this.capacity = capacity;
        this.appended = appended;
        this.appendedStart = appendedStart;
    }

    /** From a record boundary {@code from}, the furthest boundary at or below {@code written}. */
    long advance(long from, long written) {
        long at = from;
        while (written - at >= 8) {
            long segmentEnd = at - Math.floorMod(at, capacity) + capacity;
            int size = readInt(at, written);
            int magic = readInt(at + 4, written);
            if (magic == MessageLayout.BLANK_MAGIC) {
                if (written < segmentEnd) {
                    break;
                }
                at = segmentEnd;
            } else if (MessageLayout.isMessageMagic(magic) && size > 0 && at + size <= segmentEnd) {
                if (at + size > written) {
                    break;
                }
                at += size;
            } else {
                LOG.error("replicated bytes at {} are not a record (size {}, magic 0x{})", at, size,
                        Integer.toHexString(magic));
                break;
            }
        }
        return at;
    }

    private int readInt(long offset, long written) {
        long inAppended = offset - appendedStart;
        if (inAppended >= 0 && inAppended + 4 <= appended.readableBytes()) {
            return appended.getInt(appended.readerIndex() + (int) inAppended);
        }
        var view = log.read(offset, 4);
        try {
            return view.readableBytes() < 4 ? -1 : view.getInt(view.readerIndex());
        } finally {
            view.release();
        }
    }
}
