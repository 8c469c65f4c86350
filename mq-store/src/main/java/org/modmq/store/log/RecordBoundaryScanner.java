package org.modmq.store.log;

import org.modmq.store.format.MessageLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Finds where the last whole record ends in bytes appended by replication. Not thread-safe; one use. */
final class RecordBoundaryScanner {

    private static final Logger LOG = LoggerFactory.getLogger(RecordBoundaryScanner.class);

    private final CommitLog log;
    private final int capacity;

    RecordBoundaryScanner(CommitLog log, int capacity) {
        this.log = log;
        this.capacity = capacity;
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
        var view = log.read(offset, 4);
        try {
            return view.readableBytes() < 4 ? -1 : view.getInt(view.readerIndex());
        } finally {
            view.release();
        }
    }
}
