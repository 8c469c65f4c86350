package org.modmq.store.faulty.control;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import java.util.List;
import org.modmq.api.spi.storage.Segment;

/**
 * A segment of the delegate backend with faults injected and every unforced write journaled
 * ({@link UndoJournal}), so that a power loss can take back exactly what was not forced.
 *
 * <p>Threads: as {@link Segment}. Writes and the mark a force takes are serialized on the journal;
 * reads go straight to the delegate. Every operation holds the backend's crash gate, so a power loss
 * waits for operations in progress and refuses later ones.
 */
final class FaultySegment implements Segment {

    private final Segment inner;
    private final FaultControl control;
    private final FaultyStorageBackend backend;
    private final UndoJournal journal = new UndoJournal();
    /** Highest position a simulated force made durable (see {@link FaultControl#simulateForces}). */
    private volatile int simulatedDurable;

    FaultySegment(Segment inner, FaultControl control, FaultyStorageBackend backend) {
        this.inner = inner;
        this.control = control;
        this.backend = backend;
    }

    @Override
    public Path path() {
        return inner.path();
    }

    @Override
    public int capacity() {
        return inner.capacity();
    }

    @Override
    public void write(int position, ByteBuf source) {
        int length = source.readableBytes();
        backend.enter("write to " + path());
        try {
            Fault fault = control.faultFor(Operation.WRITE, path());
            if (fault != null) {
                // A torn write: the first half lands, as when the device fails in the middle.
                journaledWrite(position, source.slice(source.readerIndex(), length / 2));
                throw fault.exception("write " + length + " bytes at " + position + " of segment " + path());
            }
            journaledWrite(position, source);
        } finally {
            backend.exit();
        }
    }

    private void journaledWrite(int position, ByteBuf bytes) {
        int length = bytes.readableBytes();
        synchronized (journal) {
            byte[] before = new byte[length];
            if (length > 0) {
                ByteBuf old = inner.read(position, length);
                try {
                    old.getBytes(old.readerIndex(), before);
                } finally {
                    old.release();
                }
            }
            // Recorded before the write: taking back a write that then failed only restores what was there.
            journal.record(position, before);
            inner.write(position, bytes);
        }
    }

    @Override
    public ByteBuf read(int position, int length) {
        backend.enter("read from " + path());
        try {
            control.check(Operation.READ, path(), "read " + length + " bytes at " + position + " of segment " + path());
            return inner.read(position, length);
        } finally {
            backend.exit();
        }
    }

    @Override
    public void flush(int upTo) {
        control.holdForce();
        backend.enter("force " + path());
        try {
            control.check(Operation.FORCE, path(), "force segment " + path() + " up to " + upTo);
            if (upTo < 0 || upTo > capacity()) {
                throw new IndexOutOfBoundsException("flush up to " + upTo + " is outside [0, " + capacity() + "] of "
                        + path());
            }
            long mark = journal.mark();
            if (control.forcesSimulated()) {
                if (upTo > simulatedDurable) {
                    simulatedDurable = upTo;
                }
            } else {
                inner.flush(upTo);
            }
            journal.forced(upTo, mark);
        } finally {
            backend.exit();
        }
    }

    @Override
    public int durablePosition() {
        return Math.max(inner.durablePosition(), simulatedDurable);
    }

    @Override
    public void warm() {
        inner.warm();
    }

    /** Bytes a power loss now would take back. */
    long unforcedBytes() {
        return journal.unforcedBytes();
    }

    /** Takes the undo entries out, newest first (a closed segment hands them to its backend). */
    List<UndoJournal.Entry> drainUndo() {
        return journal.drainNewestFirst();
    }

    /**
     * Power loss, under the backend's exclusive gate: puts back what every unforced write overwrote,
     * newest first, and forces the result, so the file holds only what had been forced.
     */
    void restoreForced() {
        restore(inner, journal.drainNewestFirst());
    }

    /** Writes {@code undo} (newest first) into {@code segment} and forces it. */
    static void restore(Segment segment, List<UndoJournal.Entry> undo) {
        if (undo.isEmpty()) {
            return;
        }
        for (UndoJournal.Entry entry : undo) {
            segment.write(entry.position(), Unpooled.wrappedBuffer(entry.before()));
        }
        segment.flush(segment.capacity());
    }

    /** Closes the segment; what simulated forces made durable is forced for real first. */
    @Override
    public void close() {
        try {
            if (simulatedDurable > inner.durablePosition() && !backend.crashed()) {
                inner.flush(simulatedDurable);
            }
        } catch (IllegalStateException alreadyClosed) {
            // The delegate backend closed it already; nothing more can reach the file.
        } finally {
            backend.closed(this);
            inner.close();
        }
    }

    /** Deletes the file, unless after a power loss (a crashed machine deletes nothing). */
    @Override
    public void delete() {
        if (backend.crashed()) {
            close();
            return;
        }
        journal.drainNewestFirst();
        backend.closed(this);
        inner.delete();
    }
}
