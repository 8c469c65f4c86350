package org.modmq.replication.tck;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.api.spi.replication.ReplicatedLog;

/**
 * A {@link ReplicatedLog} in memory that keeps the rules the store keeps: replicated bytes start at the end
 * (an empty log at any segment start), reads never cross a segment end, epoch entries only grow and never
 * start beyond the end, and the replica-only calls are refused while the log is in master mode. It records
 * the offsets of replicated appends and of truncations, so a test can tell how a strategy got where it is.
 *
 * <p>A master's own writes ({@link #write}) are pseudo-random bytes drawn from the log's seed and the
 * offset, so two logs that wrote the same range on their own hold different bytes there.
 * {@link #holdAppends()} makes replicated appends wait (at most {@link #HOLD_LIMIT_SECONDS} s) until
 * {@link #releaseAppends()}, as a slow disk would. Thread-safe.
 */
public final class MemoryReplicatedLog implements ReplicatedLog {

    /** The longest a held append waits before it goes ahead anyway, so a forgotten release cannot hang a test. */
    public static final long HOLD_LIMIT_SECONDS = 30;

    private final int segmentSize;
    private final long seed;
    private final List<EpochEntry> epochs = new ArrayList<>();
    private final List<Long> appendOffsets = new ArrayList<>();
    private final List<Long> truncations = new ArrayList<>();
    private byte[] data = new byte[4096];
    private long min;
    private long max;
    private long confirm;
    private boolean master;
    private volatile CountDownLatch hold;

    /**
     * @param segmentSize bytes per segment (what a read may not cross), &gt; 0
     * @param seed distinguishes this log's own writes from another log's
     */
    public MemoryReplicatedLog(int segmentSize, long seed) {
        if (segmentSize <= 0) {
            throw new IllegalArgumentException("segmentSize " + segmentSize + " <= 0");
        }
        this.segmentSize = segmentSize;
        this.seed = seed;
    }

    /** As the store does on becoming master: master mode, and {@code epoch} recorded at the end when it is new. */
    public synchronized void becomeMaster(int epoch) {
        master = true;
        if (epoch > 0 && (epochs.isEmpty() || epochs.get(epochs.size() - 1).epoch() < epoch)) {
            epochs.add(new EpochEntry(epoch, max));
        }
    }

    /** As the store does on becoming a replica: the replica-only calls are allowed from now on. */
    public synchronized void becomeReplica() {
        master = false;
    }

    /** Master: appends {@code length} bytes of its own, as the store's writers do; returns the new end. */
    public synchronized long write(int length) {
        if (!master) {
            throw new IllegalStateException("a replica takes no local writes");
        }
        byte[] chunk = new byte[length];
        new Random(seed * 1_000_003L + max).nextBytes(chunk);
        put(chunk, 0, length);
        return max;
    }

    /** From now on replicated appends wait until {@link #releaseAppends()}. */
    public void holdAppends() {
        hold = new CountDownLatch(1);
    }

    /** Lets held and later replicated appends go ahead. */
    public void releaseAppends() {
        CountDownLatch current = hold;
        hold = null;
        if (current != null) {
            current.countDown();
        }
    }

    /** Every byte from {@code from} (at least {@link #minOffset()}) to the end. */
    public synchronized byte[] bytes(long from) {
        if (from < min || from > max) {
            throw new IndexOutOfBoundsException("offset " + from + " outside [" + min + ", " + max + "]");
        }
        return Arrays.copyOfRange(data, (int) (from - min), (int) (max - min));
    }

    /** The start offsets of the replicated appends, in order. */
    public synchronized List<Long> appendOffsets() {
        return List.copyOf(appendOffsets);
    }

    /** The offsets of the truncations, in order. */
    public synchronized List<Long> truncations() {
        return List.copyOf(truncations);
    }

    /** The segment size this log was made with. */
    public int segmentSize() {
        return segmentSize;
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
        long segmentEnd = offset - Math.floorMod(offset, segmentSize) + segmentSize;
        int length = (int) Math.min(Math.min(Math.max(0, maxLength), max - offset), segmentEnd - offset);
        int from = (int) (offset - min);
        return Unpooled.wrappedBuffer(Arrays.copyOfRange(data, from, from + length));
    }

    @Override
    public void append(long offset, ByteBuf bytes) {
        awaitRelease();
        synchronized (this) {
            requireReplica("append");
            if (offset != max) {
                if (max != min || offset % segmentSize != 0) {
                    throw new IllegalArgumentException("replicated bytes start at " + offset + ", the log ends at "
                            + max + (max == min ? " and " + offset + " is no segment start" : ""));
                }
                min = offset;
                max = offset;
            }
            int length = bytes.readableBytes();
            byte[] chunk = new byte[length];
            bytes.getBytes(bytes.readerIndex(), chunk);
            put(chunk, 0, length);
            appendOffsets.add(offset);
        }
    }

    @Override
    public synchronized void truncate(long offset) {
        requireReplica("truncate");
        truncations.add(offset);
        if (offset <= min) {
            min = 0;
            max = 0;
            epochs.clear();
        } else if (offset < max) {
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
        if (last != null && (entry.epoch() <= last.epoch() || entry.startOffset() < last.startOffset())) {
            throw new IllegalArgumentException("epoch entry " + entry + " does not follow " + last);
        }
        if (entry.startOffset() > max) {
            throw new IllegalArgumentException("epoch entry " + entry + " starts beyond the log's end " + max);
        }
        epochs.add(entry);
    }

    /** A master's log counts everything it holds as confirmed; a replica's holds what its master said. */
    @Override
    public synchronized long confirmOffset() {
        return master ? max : confirm;
    }

    @Override
    public synchronized void confirm(long offset) {
        requireReplica("confirm");
        confirm = Math.max(confirm, Math.min(offset, max));
    }

    private void put(byte[] chunk, int from, int length) {
        int used = (int) (max - min);
        if (used + length > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, used + length));
        }
        System.arraycopy(chunk, from, data, used, length);
        max += length;
    }

    private void awaitRelease() {
        CountDownLatch current = hold;
        if (current == null) {
            return;
        }
        try {
            current.await(HOLD_LIMIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void requireReplica(String what) {
        if (master) {
            throw new IllegalStateException(what + " is for a replica; this log is the master's");
        }
    }
}
