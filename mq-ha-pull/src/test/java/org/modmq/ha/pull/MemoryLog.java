package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicatedLog;

/**
 * A {@link ReplicatedLog} in memory with the store's rules (appends at the end or, for an empty log, at a
 * segment start; epoch entries increasing and not beyond the end; replica-only operations refused while
 * {@link #master} is set) and a journal of the replica-side calls, in order. Synchronized.
 */
final class MemoryLog implements ReplicatedLog {

    private final int segment;
    private final List<String> journal = new ArrayList<>();
    private final List<EpochEntry> epochs = new ArrayList<>();
    private byte[] bytes = new byte[0];
    private long min;
    private long max;
    private long confirm;
    private long masterConfirm = -1;
    private boolean master;

    MemoryLog(int segment) {
        this.segment = segment;
    }

    /** A log holding {@code length} bytes of a pattern from {@code start}, with {@code entries}. */
    static MemoryLog holding(int segment, long start, int length, EpochEntry... entries) {
        MemoryLog log = new MemoryLog(segment);
        log.min = start;
        log.max = start + length;
        log.bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            log.bytes[i] = (byte) (start + i);
        }
        log.epochs.addAll(List.of(entries));
        return log;
    }

    synchronized void master(boolean value) {
        master = value;
    }

    synchronized List<String> journal() {
        return List.copyOf(journal);
    }

    synchronized byte[] content() {
        return bytes.clone();
    }

    @Override
    public synchronized long maxOffset() {
        return max;
    }

    @Override
    public synchronized long minOffset() {
        return min;
    }

    @Override
    public synchronized ByteBuf read(long offset, int maxLength) {
        if (offset < min || offset > max) {
            throw new IndexOutOfBoundsException("offset " + offset + " outside [" + min + ", " + max + "]");
        }
        long segmentEnd = offset - Math.floorMod(offset, segment) + segment;
        int length = (int) Math.min(Math.min(maxLength, max - offset), segmentEnd - offset);
        return Unpooled.wrappedBuffer(Arrays.copyOfRange(bytes, (int) (offset - min), (int) (offset - min) + length));
    }

    @Override
    public synchronized void append(long offset, ByteBuf in) {
        requireReplica("append");
        if (offset != max) {
            if (max != 0 || offset % segment != 0) {
                throw new IllegalArgumentException("replicated bytes start at " + offset + ", log ends at " + max);
            }
            min = offset;
            max = offset;
            bytes = new byte[0];
        }
        int n = in.readableBytes();
        byte[] grown = Arrays.copyOf(bytes, bytes.length + n);
        in.getBytes(in.readerIndex(), grown, bytes.length, n);
        bytes = grown;
        max += n;
        journal.add("append " + offset + "+" + n);
    }

    @Override
    public synchronized void truncate(long offset) {
        requireReplica("truncate");
        journal.add("truncate " + offset);
        if (offset <= min) {
            bytes = new byte[0];
            min = 0;
            max = 0;
            epochs.clear();
        } else if (offset < max) {
            bytes = Arrays.copyOf(bytes, (int) (offset - min));
            max = offset;
        }
        epochs.removeIf(entry -> entry.startOffset() >= offset);
        confirm = Math.min(confirm, max);
    }

    @Override
    public synchronized List<EpochEntry> epochs() {
        return List.copyOf(epochs);
    }

    @Override
    public synchronized void startEpoch(EpochEntry entry) {
        requireReplica("startEpoch");
        EpochEntry last = epochs.isEmpty() ? null : epochs.get(epochs.size() - 1);
        if (entry.equals(last)) {
            return;
        }
        if (last != null && (entry.epoch() <= last.epoch() || entry.startOffset() < last.startOffset())
                || entry.startOffset() > max) {
            throw new IllegalArgumentException("epoch entry " + entry + " does not follow " + last + " / end " + max);
        }
        epochs.add(entry);
        journal.add("startEpoch " + entry.epoch() + "-" + entry.startOffset());
    }

    @Override
    public synchronized long confirmOffset() {
        if (master) {
            return masterConfirm < 0 ? max : masterConfirm;
        }
        return confirm;
    }

    /** Master: what {@link #confirmOffset()} answers from now on (-1: the log's end). */
    synchronized void masterConfirm(long value) {
        masterConfirm = value;
    }

    @Override
    public synchronized void confirm(long offset) {
        requireReplica("confirm");
        confirm = Math.max(confirm, Math.min(offset, max));
        journal.add("confirm " + confirm);
    }

    /** Master side: appends locally, as the store's own writes do. */
    synchronized void write(int n) {
        byte[] grown = Arrays.copyOf(bytes, bytes.length + n);
        for (int i = 0; i < n; i++) {
            grown[bytes.length + i] = (byte) (max + i);
        }
        bytes = grown;
        max += n;
    }

    /** Master side: records an epoch as the store does on becoming master. */
    synchronized void masterEpoch(int epoch) {
        epochs.add(new EpochEntry(epoch, max));
    }

    private void requireReplica(String what) {
        if (master) {
            throw new IllegalStateException(what + " is for a replica; this store is the master");
        }
    }
}
