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
 * trusted. After a crash the log is walked from the start of the segment holding the checkpoint's
 * flushed offset, or of the third-last segment if that is earlier; each record's magic, size, position
 * and body CRC are checked, and the log is cut at the first bad or torn record (its tail zeroed, later
 * segments deleted). Runs once, before the store serves anything; not thread-safe.
 */
public final class CommitLogRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(CommitLogRecovery.class);
    private static final int WALK_SEGMENTS = 3;

    private final CommitLog log;

    public CommitLogRecovery(CommitLog log) {
        this.log = Objects.requireNonNull(log, "log");
    }

    public RecoveryOutcome recover(boolean abnormal, Checkpoint checkpoint) {
        SegmentFiles files = log.files();
        if (files.isEmpty()) {
            log.restoreEnd(0);
            return new RecoveryOutcome(abnormal, 0, 0, 0, -1, "");
        }
        long confirm = checkpoint.confirmPhyOffset();
        if (!abnormal && !Checkpoint.EMPTY.equals(checkpoint) && confirm >= files.firstStart() && confirm <= files.lastStart() + files.capacity()
) {
            log.restoreEnd(confirm);
            return new RecoveryOutcome(false, confirm, confirm, 0, -1, "");
        }
        List<Long> starts = files.starts();
        long from = starts.get(Math.max(0, starts.size() - WALK_SEGMENTS));
        long flushed = checkpoint.masterFlushedOffset();
        if (flushed > 0) {
            from = Math.max(files.firstStart(), Math.min(from, files.startOf(flushed)));
        }
        return walk(abnormal, from);
    }

    private RecoveryOutcome walk(boolean abnormal, long from) {
        SegmentFiles files = log.files();
        long at = from;
        long verified = 0;
        String reason = "";
        while (true) {
            long start = files.startOf(at);
            Segment segment = files.find(at);
            int position = (int) (at - start);
            if (segment == null || position + MessageLayout.BLANK_LENGTH > files.capacity()) {
                break;
            }
            int size = readInt(segment, position);
            int magic = readInt(segment, position + 4);
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
            reason = check(segment, position, size, magic, at);
            if (!reason.isEmpty()) {
                break;
            }
            at += size;
            verified++;
        }
        if (!reason.isEmpty()) {
            LOG.error("CommitLog record at {} is bad ({}); the log is cut there", at, reason);
        }
        log.truncate(at);
        LOG.info("CommitLog recovered: verified {} records from {}, end {}", verified, from, at);
        return new RecoveryOutcome(abnormal, from, at, verified, reason.isEmpty() ? -1 : at, reason);
    }

    private String check(Segment segment, int position, int size, int magic, long at) {
        if (!MessageLayout.isMessageMagic(magic)) {
            return "bad magic 0x" + Integer.toHexString(magic);
        }
        if (size < MessageLayout.FIXED_V1_IPV4 || position + size + MessageLayout.BLANK_LENGTH > segment.capacity()) {
            return "bad TOTALSIZE " + size;
        }
        ByteBuf record = segment.read(position, size);
        try {
            int base = record.readerIndex();
            if (record.getLong(base + MessageLayout.PHYSICAL_OFFSET) != at) {
                return "PHYSICALOFFSET " + record.getLong(base + MessageLayout.PHYSICAL_OFFSET) + " != " + at;
            }
            if (!MessageDecoder.bodyCrcMatches(record, base)) {
                return "body CRC mismatch";
            }
            MessageDecoder.summarize(record, base);
            return "";
        } catch (CorruptRecordException e) {
            return e.getMessage();
        } finally {
            record.release();
        }
    }

    private static int readInt(Segment segment, int position) {
        ByteBuf view = segment.read(position, 4);
        try {
            return view.getInt(view.readerIndex());
        } finally {
            view.release();
        }
    }
}
