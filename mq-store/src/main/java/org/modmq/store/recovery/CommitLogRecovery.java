package org.modmq.store.recovery;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Objects;
import org.modmq.api.spi.storage.Segment;
import org.modmq.store.format.CorruptRecordException;
import org.modmq.store.format.MessageDecoder;
import org.modmq.store.format.MessageLayout;
import org.modmq.store.log.CommitLog;
import org.modmq.store.segment.SegmentFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the CommitLog's end at open. After a clean close the checkpoint's {@code confirmPhyOffset} is
 * trusted. After a crash everything below the checkpoint's flushed offset was forced before the
 * checkpoint was written, so the walk starts at the last record start the checkpoint names below it
 * (its dispatched offset, usually), once the record there proves to be one; failing that, at the start
 * of the segment holding the flushed offset. Only when the files end below that offset, files older than
 * the checkpoint, is the log walked again from the third-last segment. Each record's magic, size,
 * position and field lengths are checked, and the log is cut at the first bad or torn record (its tail
 * zeroed, later segments deleted). The body CRC is checked from where the walk starts, or from the
 * segment holding the flushed offset in the wider walk, whose earlier segments have their framing
 * checked. (RocketMQ walks and checks CRCs from the start of the checkpoint's segment.) Runs once,
 * before the store serves anything; not thread-safe.
 */
public final class CommitLogRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(CommitLogRecovery.class);
    private static final int WALK_SEGMENTS = 3;
    /** Bytes read per view: one view per window instead of three per record. */
    private static final int WINDOW = 4 << 20;

    private final CommitLog log;

    public CommitLogRecovery(CommitLog log) {
        this.log = Objects.requireNonNull(log, "log");
    }

    public RecoveryOutcome recover(boolean abnormal, Checkpoint checkpoint) {
        SegmentFiles files = log.files();
        if (files.isEmpty()) {
            log.restoreEnd(0);
            return new RecoveryOutcome(abnormal, 0, 0, 0, -1, "", 0, 0);
        }
        long confirm = checkpoint.confirmPhyOffset();
        if (!abnormal && !Checkpoint.EMPTY.equals(checkpoint) && confirm >= files.firstStart() && confirm <= files.lastStart() + files.capacity()
) {
            log.restoreEnd(confirm);
            return new RecoveryOutcome(false, confirm, confirm, 0, -1, "", confirm,
                    Math.min(confirm, checkpoint.logicsFlushedOffset()));
        }
        List<Long> starts = files.starts();
        long from = starts.get(Math.max(0, starts.size() - WALK_SEGMENTS));
        long flushed = checkpoint.masterFlushedOffset();
        long dispatched = checkpoint.logicsFlushedOffset();
        long crcFrom = from;
        if (flushed > 0) {
            from = Math.max(files.firstStart(), Math.min(from, files.startOf(flushed)));
            crcFrom = Math.max(from, files.startOf(flushed));
            // Everything below the flushed offset was forced before the checkpoint was written, so the
            // walk may start at the segment holding the last forced byte. Only when the files end below
            // that offset (files older than the checkpoint) do the segments before it need walking too.
            long forcedSegment = flushed > files.firstStart() ? files.startOf(flushed - 1) : from;
            Walk tail = walkFromBoundary(forcedSegment, flushed, dispatched);
            if (tail != null) {
                return finish(abnormal, tail, dispatched);
            }
            if (forcedSegment > from && files.find(forcedSegment) != null) {
                Walk narrow = walk(forcedSegment, forcedSegment, dispatched);
                if (narrow.end() >= flushed) {
                    return finish(abnormal, narrow, dispatched);
                }
                LOG.warn("CommitLog ends at {}, below the checkpoint's flushed offset {}; walking again from {}",
                        narrow.end(), flushed, from);
            }
        }
        return finish(abnormal, walk(from, crcFrom, dispatched), dispatched);
    }

    /**
     * The walk from the last record start the checkpoint names inside the forced segment: the dispatched
     * offset (every dispatch position is a record start), or the flushed offset when dispatch was ahead of
     * it (a master's flushed offset is the end of a write; a replica's may lie inside a record). Taken
     * only when that position holds a whole, valid record (its own PHYSICALOFFSET, its body CRC) and the
     * walk reaches the flushed offset; otherwise, {@code null}, the caller walks the whole segment. A
     * restart after a crash then reads what came after the last logics force, not the whole segment
     * (up to 1 GiB at the default segment size).
     */
    private Walk walkFromBoundary(long forcedSegment, long flushed, long dispatched) {
        long boundary = dispatched <= flushed ? dispatched : flushed;
        if (boundary <= forcedSegment || log.files().find(boundary) == null) {
            return null;
        }
        Walk walk = walk(boundary, boundary, dispatched);
        return walk.verified() > 0 && walk.end() >= flushed ? walk : null;
    }

    /** What one walk found; nothing is cut yet. */
    private record Walk(long from, long crcFrom, long end, long verified, String reason, boolean passedDispatched) {
    }

    private RecoveryOutcome finish(boolean abnormal, Walk walk, long dispatched) {
        if (!walk.reason().isEmpty()) {
            LOG.error("CommitLog record at {} is bad ({}); the log is cut there", walk.end(), walk.reason());
        }
        log.truncate(walk.end());
        LOG.info("CommitLog recovered: verified {} records from {} (body CRC from {}), end {}", walk.verified(),
                walk.from(), walk.crcFrom(), walk.end());
        long redispatch = walk.passedDispatched() ? dispatched : Math.min(walk.from(), dispatched);
        return new RecoveryOutcome(abnormal, walk.from(), walk.end(), walk.verified(),
                walk.reason().isEmpty() ? -1 : walk.end(), walk.reason(), walk.crcFrom(), redispatch);
    }

    private Walk walk(long from, long crcFrom, long dispatched) {
        SegmentFiles files = log.files();
        long at = from;
        long verified = 0;
        String reason = "";
        boolean passedDispatched = false;
        Window window = new Window();
        try {
            while (true) {
                passedDispatched |= at == dispatched;
                long start = files.startOf(at);
                Segment segment = files.find(at);
                int position = (int) (at - start);
                if (segment == null || position + MessageLayout.BLANK_LENGTH > files.capacity()) {
                    break;
                }
                ByteBuf bytes = window.cover(segment, at, position, MessageLayout.BLANK_LENGTH);
                int base = window.base(at);
                int size = bytes.getInt(base);
                int magic = bytes.getInt(base + 4);
                if (size == 0 && magic == 0) {
                    break;
                }
                if (magic == MessageLayout.BLANK_MAGIC && size == files.capacity() - position) {
                    if (files.find(start + files.capacity()) == null) {
                        break;
                    }
                    at = start + files.capacity();
                    continue;
                }
                reason = check(window, segment, position, size, magic, at, at >= crcFrom);
                if (!reason.isEmpty()) {
                    break;
                }
                at += size;
                verified++;
            }
        } finally {
            window.release();
        }
        return new Walk(from, crcFrom, at, verified, reason, passedDispatched);
    }

    private static String check(Window window, Segment segment, int position, int size, int magic, long at,
                                boolean checkCrc) {
        if (!MessageLayout.isMessageMagic(magic)) {
            return "bad magic 0x" + Integer.toHexString(magic);
        }
        if (size < MessageLayout.FIXED_V1_IPV4 || position + size + MessageLayout.BLANK_LENGTH > segment.capacity()) {
            return "bad TOTALSIZE " + size;
        }
        ByteBuf record = window.cover(segment, at, position, size).slice(window.base(at), size);
        try {
            if (record.getLong(MessageLayout.PHYSICAL_OFFSET) != at) {
                return "PHYSICALOFFSET " + record.getLong(MessageLayout.PHYSICAL_OFFSET) + " != " + at;
            }
            if (checkCrc && !MessageDecoder.bodyCrcMatches(record, 0)) {
                return "body CRC mismatch";
            }
            MessageDecoder.check(record, 0);
            return "";
        } catch (CorruptRecordException e) {
            return e.getMessage();
        }
    }

    /** One read view of a segment, moved forward as the walk passes its end. */
    private static final class Window {
        private ByteBuf view;
        private Segment segment;
        private long start;

        /** A view holding {@code [at, at + length)} of {@code segment} ({@code position} = at's position in it). */
        ByteBuf cover(Segment target, long at, int position, int length) {
            if (view == null || segment != target || at < start || at + length > start + view.readableBytes()) {
                release();
                int bytes = Math.max(length, Math.min(WINDOW, target.capacity() - position));
                view = target.read(position, bytes);
                segment = target;
                start = at;
            }
            return view;
        }

        /** The index of {@code at} in the current view. */
        int base(long at) {
            return view.readerIndex() + (int) (at - start);
        }

        void release() {
            if (view != null) {
                view.release();
                view = null;
                segment = null;
            }
        }
    }
}
