package org.modmq.store.log;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageSysFlag;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.spi.flush.FlushTarget;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageException;
import org.modmq.store.format.MessageDecoder;
import org.modmq.store.format.MessageEncoder;
import org.modmq.store.format.MessageLayout;
import org.modmq.store.format.RecordSummary;
import org.modmq.store.format.TopicQueue;
import org.modmq.store.segment.SegmentFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CommitLog: stored records back to back in fixed-size segments; a record never spans two segments
 * (the rest of a segment too short for the next record plus {@link MessageLayout#BLANK_LENGTH} gets a
 * blank marker).
 *
 * <p>Queue offsets are dense: each record of a topic-queue that gets a ConsumeQueue entry takes the next
 * one; a prepared or rolled-back transaction record takes none (its QUEUEOFFSET is 0), as in RocketMQ.
 *
 * <p>Threads: appends (local or replicated) and truncation are serialized by a short lock, which also
 * assigns commit-log offset, queue offset and store timestamp. {@link #maxOffset()} and
 * {@link #confirmedOffset()} are volatile and published after the bytes are written, so any thread
 * may read below them. {@link #flush()} may run concurrently with appends. Read views handed out are
 * owned by the caller, who releases them.
 */
public final class CommitLog implements FlushTarget, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CommitLog.class);

    private final SegmentFiles files;
    private final QueueOffsetTable queueOffsets;
    private final Clock clock;
    private final MessageEncoder encoder;
    /** What a record may hold beside its body: RocketMQ's encoder allows maxMessageSize + 64 KiB. */
    public static final int RECORD_HEADROOM = 64 * 1024;

    private final int maxMessageSize;
    private final ReentrantLock appendLock = new ReentrantLock();
    private volatile AppendObserver observer;
    private final Object flushLock = new Object();
    private final ByteBuf blank = Unpooled.unreleasableBuffer(Unpooled.buffer(8, 8));
    private volatile long written;
    private volatile long confirmed;
    private volatile long durable;
    /** End of the farthest append attempted (under the append lock): a failed one may leave bytes up to it. */
    private long attemptedEnd;
    private volatile LogMode mode = LogMode.LOCAL;

    /**
     * @param files the segments (already loaded); their span equals their capacity
     * @param maxMessageSize largest body accepted, bytes; a record may be {@link #RECORD_HEADROOM} larger
     *     (RocketMQ's bound: the header, a topic of up to 255 bytes and up to 32 KiB of properties fit)
     */
    public CommitLog(SegmentFiles files, QueueOffsetTable queueOffsets, Clock clock, ByteBufAllocator allocator,
                     int maxMessageSize) {
        this.files = Objects.requireNonNull(files, "files");
        this.queueOffsets = Objects.requireNonNull(queueOffsets, "queueOffsets");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.encoder = new MessageEncoder(allocator);
        this.maxMessageSize = maxMessageSize;
        long last = files.lastStart();
        this.written = Math.max(0, last);
        this.confirmed = written;
        this.durable = written;
    }

    public SegmentFiles files() {
        return files;
    }

    public QueueOffsetTable queueOffsets() {
        return queueOffsets;
    }

    /** Which writes the log takes now. */
    public LogMode mode() {
        return mode;
    }

    /**
     * Switches which writes the log takes. Waits for an append in progress, so no write of the old mode
     * lands after this returns.
     */
    public void mode(LogMode next) {
        appendLock.lock();
        try {
            mode = Objects.requireNonNull(next, "next");
        } finally {
            appendLock.unlock();
        }
    }

    /** Appends one message. Never throws for bad input: the status says why nothing was written. */
    public AppendResult append(BrokerMessage message) {
        return appendBatch(List.of(message));
    }

    /** Told of every local append's records, so that dispatch need not read them back. */
    public interface AppendObserver {

        /**
         * Called under the append lock, after the records at [{@code start}, {@code end}) are written
         * (a truncation cannot come between); must not block.
         */
        void appended(long start, long end, List<RecordSummary> records);
    }

    /** Sets the one observer of local appends (dispatch), replacing any earlier one. */
    public void observeAppends(AppendObserver observer) {
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    /**
     * Appends messages of one topic-queue with consecutive queue offsets (none for a prepared or
     * rolled-back transaction record) into one segment. All or nothing.
     */
    public AppendResult appendBatch(List<BrokerMessage> messages) {
        if (messages.isEmpty()) {
            return AppendResult.failed(PutStatus.MESSAGE_ILLEGAL, "empty batch");
        }
        TopicQueue queue = new TopicQueue(messages.get(0).topic(), messages.get(0).queueId());
        List<ByteBuf> records = new ArrayList<>(messages.size());
        try {
            int total = 0;
            for (BrokerMessage message : messages) {
                if (!queue.equals(new TopicQueue(message.topic(), message.queueId()))) {
                    return AppendResult.failed(PutStatus.MESSAGE_ILLEGAL, "a batch must share one topic and queue");
                }
                if (message.body().length > maxMessageSize) {
                    return AppendResult.failed(PutStatus.MESSAGE_ILLEGAL, "body of " + message.body().length
                            + " bytes exceeds maxMessageSize " + maxMessageSize);
                }
                ByteBuf record = encoder.encode(message);
                records.add(record);
                if (record.readableBytes() > (long) maxMessageSize + RECORD_HEADROOM) {
                    return AppendResult.failed(PutStatus.MESSAGE_ILLEGAL, "record of " + record.readableBytes()
                            + " bytes exceeds maxMessageSize " + maxMessageSize + " + " + RECORD_HEADROOM);
                }
                total += record.readableBytes();
            }
            if (total + MessageLayout.BLANK_LENGTH > files.capacity()) {
                return AppendResult.failed(PutStatus.MESSAGE_ILLEGAL, total + " bytes do not fit one segment of "
                        + files.capacity());
            }
            List<RecordSummary> partial = observer == null ? null : summaries(records);
            appendLock.lock();
            try {
                return appendLocked(queue, records, total, partial);
            } finally {
                appendLock.unlock();
            }
        } catch (PutStatusException e) {
            return AppendResult.failed(e.status(), e.getMessage());
        } catch (StorageException e) {
            LOG.error("append failed", e);
            return AppendResult.failed(PutStatus.UNKNOWN_ERROR, e.getMessage());
        } finally {
            records.forEach(ByteBuf::release);
        }
    }

    /**
     * The records' summaries before the append assigns their offsets and time (filled in under the lock,
     * see {@link #observeAppends}); null when one cannot be read, and the append is then read back.
     */
    private static List<RecordSummary> summaries(List<ByteBuf> records) {
        List<RecordSummary> partial = new ArrayList<>(records.size());
        try {
            for (ByteBuf record : records) {
                partial.add(MessageDecoder.summarize(record, record.readerIndex()));
            }
        } catch (RuntimeException e) {
            LOG.debug("a record to append cannot be summarized; dispatch reads it back: {}", e.toString());
            return null;
        }
        return partial;
    }

    private AppendResult appendLocked(TopicQueue queue, List<ByteBuf> records, int total,
                                      List<RecordSummary> partial) {
        if (mode != LogMode.LOCAL) {
            return AppendResult.failed(PutStatus.SERVICE_NOT_AVAILABLE, mode == LogMode.REPLICATED
                    ? "this store is a replica: it takes only its master's replicated bytes"
                    : "the store is changing its role");
        }
        long offset = written;
        long start = files.startOf(offset);
        Segment segment = files.getOrCreate(start);
        int position = (int) (offset - start);
        if (position + total + MessageLayout.BLANK_LENGTH > files.capacity()) {
            blank.clear().writeInt(files.capacity() - position).writeInt(MessageLayout.BLANK_MAGIC);
            segment.write(position, blank);
            start += files.capacity();
            offset = start;
            position = 0;
            segment = files.getOrCreate(start);
        }
        attemptedEnd = Math.max(attemptedEnd, offset + total);
        long timestamp = clock.millis();
        long next = queueOffsets.next(queue);
        long firstQueueOffset = -1;
        int assigned = 0;
        List<Long> offsets = new ArrayList<>(records.size());
        List<RecordSummary> summaries = partial == null ? null : new ArrayList<>(partial.size());
        int at = 0;
        for (ByteBuf record : records) {
            // Dense queues: a prepared or rolled-back transaction record takes no queue offset (0, as in RocketMQ).
            boolean takes = MessageSysFlag.takesQueueOffset(record.getInt(record.readerIndex() + MessageLayout.SYS_FLAG));
            long queueOffset = takes ? next + assigned++ : 0;
            if (firstQueueOffset < 0) {
                firstQueueOffset = queueOffset;
            }
            MessageLayout.setAssigned(record, record.readerIndex(), queueOffset, offset + at, timestamp);
            offsets.add(offset + at);
            if (summaries != null) {
                summaries.add(partial.get(summaries.size()).assigned(offset + at, queueOffset, timestamp));
            }
            at += record.readableBytes();
        }
        writeRecords(segment, position, records);
        queueOffsets.advance(queue, next, assigned);
        written = offset + total;
        confirmed = written;
        AppendObserver told = observer;
        if (told != null && summaries != null) {
            told.appended(offset, offset + total, summaries);
        }
        return new AppendResult(PutStatus.PUT_OK, offset, total, firstQueueOffset, records.size(), timestamp, offsets,
                "");
    }

    /**
     * A batch's records in one segment write, so that a backend sees the batch's size (the mmap backend
     * writes large ones with one system call); a single record as it is.
     */
    private static void writeRecords(Segment segment, int position, List<ByteBuf> records) {
        if (records.size() == 1) {
            segment.write(position, records.get(0));
            return;
        }
        CompositeByteBuf batch = Unpooled.compositeBuffer(records.size());
        try {
            for (ByteBuf record : records) {
                batch.addComponent(true, record.retainedSlice());
            }
            segment.write(position, batch);
        } finally {
            batch.release();
        }
    }

    /**
     * The whole record at {@code offset} of {@code size} bytes, or null when it is not (or no longer)
     * held. The caller owns the view.
     */
    public ByteBuf readRecord(long offset, int size) {
        if (offset < 0 || offset + size > confirmed || size <= 0) {
            return null;
        }
        Segment segment = files.find(offset);
        long start = files.startOf(offset);
        if (segment == null || offset - start + size > files.capacity()) {
            return null;
        }
        try {
            return segment.read((int) (offset - start), size);
        } catch (IllegalStateException e) {
            LOG.debug("segment at {} went away while reading: {}", start, e.getMessage());
            return null;
        }
    }

    /** The record at {@code offset} (size read from the record), or null. The caller owns the view. */
    public ByteBuf readRecord(long offset) {
        int size = readInt(offset);
        return size <= 0 ? null : readRecord(offset, size);
    }

    /** The int32 at {@code offset} (below the confirmed offset), or -1 when not held. */
    public int readInt(long offset) {
        ByteBuf view = readRaw(offset, 4);
        if (view == null) {
            return -1;
        }
        try {
            return view.getInt(view.readerIndex());
        } finally {
            view.release();
        }
    }

    /** STORETIMESTAMP of the record at {@code offset}, or -1 when not held. */
    public long readStoreTimestamp(long offset, int size) {
        ByteBuf record = readRecord(offset, size);
        if (record == null) {
            return -1;
        }
        try {
            return MessageLayout.storeTimestamp(record, record.readerIndex());
        } finally {
            record.release();
        }
    }

    private ByteBuf readRaw(long offset, int length) {
        Segment segment = files.find(offset);
        long start = files.startOf(offset);
        if (segment == null || offset + length > written || offset - start + length > files.capacity()) {
            return null;
        }
        try {
            return segment.read((int) (offset - start), length);
        } catch (IllegalStateException e) {
            return null;
        }
    }

    /** The offset where the next byte will be written; bytes below it are readable. */
    public long maxOffset() {
        return written;
    }

    /** The end of the last whole record: readers and dispatch see records below it. */
    public long confirmedOffset() {
        return confirmed;
    }

    /** The lowest offset still held (the log's end when it holds nothing). */
    public long minOffset() {
        long first = files.firstStart();
        return first < 0 ? written : first;
    }

    /**
     * Up to {@code maxLength} raw bytes from {@code offset}, never crossing a segment end; the caller owns
     * the view.
     *
     * @throws IndexOutOfBoundsException when {@code offset} is outside {@code [minOffset, maxOffset]}
     */
    public ByteBuf read(long offset, int maxLength) {
        long max = written;
        if (offset < minOffset() || offset > max) {
            throw new IndexOutOfBoundsException("offset " + offset + " outside [" + minOffset() + ", " + max + "]");
        }
        long start = files.startOf(offset);
        int length = (int) Math.min(Math.min(maxLength, max - offset), start + files.capacity() - offset);
        if (length <= 0) {
            return Unpooled.EMPTY_BUFFER;
        }
        ByteBuf view = readRaw(offset, length);
        if (view == null) {
            throw new IndexOutOfBoundsException("offset " + offset + " is no longer held");
        }
        return view;
    }

    /**
     * Appends replicated bytes at {@code offset} (the log's end, or any segment start of an empty log).
     *
     * @throws IllegalStateException unless the log is in {@link LogMode#REPLICATED} mode
     * @throws IllegalArgumentException when the bytes cannot start at {@code offset}
     */
    public void append(long offset, ByteBuf bytes) {
        appendLock.lock();
        try {
            if (mode != LogMode.REPLICATED) {
                throw new IllegalStateException("replicated append refused: the CommitLog takes " + mode + " writes");
            }
            if (offset != written) {
                if (!canStartAt(offset)) {
                    throw new IllegalArgumentException("replicated bytes start at " + offset + ", log ends at "
                            + written);
                }
                startEmptyLogAt(offset);
            }
            long appendedStart = written;
            int done = 0;
            int length = bytes.readableBytes();
            while (done < length) {
                long start = files.startOf(written);
                int position = (int) (written - start);
                int n = Math.min(length - done, files.capacity() - position);
                files.getOrCreate(start).write(position, bytes.slice(bytes.readerIndex() + done, n));
                done += n;
                written += n;
            }
            confirmed = new RecordBoundaryScanner(this, files.capacity(), bytes, appendedStart)
                    .advance(confirmed, written);
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * An empty log (never written) may take its first replicated bytes at any segment start: a master
     * streams an empty replica only its last segment, as RocketMQ's classic HA does.
     */
    private boolean canStartAt(long offset) {
        return written == 0 && offset > 0 && files.startOf(offset) == offset;
    }

    private void startEmptyLogAt(long offset) {
        synchronized (flushLock) {
            files.deleteFrom(0);
            files.getOrCreate(offset);
            written = offset;
            confirmed = offset;
            durable = offset;
        }
        LOG.info("empty CommitLog {} starts at {} (first replicated bytes)", files.directory(), offset);
    }

    /**
     * Cuts the log back to {@code offset}: later segments are deleted and the bytes of the segment holding
     * {@code offset} from there to the old end are zeroed and forced; an offset at or below
     * {@link #minOffset()} empties the log.
     * Any mode (the store guards who may call it).
     */
    public void truncate(long offset) {
        appendLock.lock();
        try {
            synchronized (flushLock) {
                truncateLocked(offset);
            }
        } finally {
            appendLock.unlock();
        }
    }

    private void truncateLocked(long offset) {
        if (offset <= minOffset() && offset < written) {
            files.deleteFrom(0);
            written = 0;
            confirmed = 0;
            durable = 0;
            LOG.info("CommitLog {} truncated to nothing (asked for {})", files.directory(), offset);
            return;
        }
        long start = files.startOf(offset);
        files.deleteFrom(start + files.capacity());
        Segment segment = files.find(offset);
        if (segment != null) {
            // Bytes at or beyond the log's end are zero (new segments are, and every cut zeroes what it drops),
            // so only [offset, old end) needs zeroing: a few bytes when a new master drops a partial record.
            int to = (int) Math.min(files.capacity(), Math.max(offset, written) - start);
            ByteBuf zeros = Unpooled.buffer(1 << 20, 1 << 20);
            try {
                for (int at = (int) (offset - start); at < to; ) {
                    int n = Math.min(1 << 20, to - at);
                    zeros.setIndex(0, n);
                    segment.write(at, zeros);
                    at += n;
                }
                segment.flush(to);
            } finally {
                zeros.release();
            }
        } else if (files.isEmpty() || files.lastStart() < start) {
            files.getOrCreate(start);
        }
        written = offset;
        confirmed = offset;
        durable = Math.min(durable, offset);
        attemptedEnd = offset;
        LOG.info("CommitLog {} truncated to {}", files.directory(), offset);
    }

    /** Recovery: sets the log's end to {@code offset} after it has been verified (or truncated). */
    public void restoreEnd(long offset) {
        appendLock.lock();
        try {
            attemptedEnd = offset;
            written = offset;
            confirmed = offset;
            durable = offset;
            if (files.isEmpty() || files.find(offset) == null) {
                files.getOrCreate(files.startOf(offset));
            }
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * After a failed append: zeroes what it may have left beyond the log's end (at least 8 bytes, so the
     * write itself is tried again), keeping the rule that bytes beyond the end read as zero; recovery
     * after a crash would otherwise meet the torn bytes. Serialized with appends.
     *
     * @throws StorageException when the write still fails
     */
    public void scrubTail() {
        appendLock.lock();
        try {
            long at = written;
            long segmentEnd = files.startOf(at) + files.capacity();
            long end = Math.max(attemptedEnd, Math.min(at + MessageLayout.BLANK_LENGTH, segmentEnd));
            ByteBuf zeros = Unpooled.buffer(64 * 1024, 64 * 1024);
            try {
                while (at < end) {
                    long start = files.startOf(at);
                    int position = (int) (at - start);
                    int length = (int) Math.min(end - at, files.capacity() - position);
                    Segment segment = files.find(start);
                    for (int done = 0; segment != null && done < length; ) {
                        int n = Math.min(zeros.capacity(), length - done);
                        zeros.setIndex(0, n);
                        segment.write(position + done, zeros);
                        done += n;
                    }
                    at = start + files.capacity();
                }
            } finally {
                zeros.release();
            }
            attemptedEnd = written;
        } finally {
            appendLock.unlock();
        }
    }

    /** The path of the segment starting at {@code start}. */
    public Path segmentPath(long start) {
        return files.directory().resolve(SegmentFiles.fileName(start));
    }

    /**
     * Deletes the segment starting at {@code start} unless it holds the log's end (the active segment).
     *
     * @return whether it was deleted
     */
    public boolean deleteSegment(long start) {
        appendLock.lock();
        try {
            if (start + files.capacity() > written || start == files.lastStart()) {
                return false;
            }
            files.delete(start);
            return true;
        } finally {
            appendLock.unlock();
        }
    }

    @Override
    public long writtenOffset() {
        return written;
    }

    @Override
    public long durableOffset() {
        return durable;
    }

    @Override
    public boolean holdsWritesInProcess() {
        return files.holdsWritesInProcess();
    }

    @Override
    public long flush() {
        synchronized (flushLock) {
            long target = written;
            for (long start = files.startOf(durable); start <= target; start += files.capacity()) {
                Segment segment = files.find(start);
                if (segment != null) {
                    segment.flush((int) Math.min(files.capacity(), target - start));
                }
            }
            durable = Math.max(durable, target);
            return durable;
        }
    }

    /** Closes the segments. Idempotent. */
    @Override
    public void close() {
        files.close();
    }
}
