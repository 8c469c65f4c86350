package org.modmq.store.tck;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import org.modmq.api.spi.storage.Segment;

/**
 * One writer appending length-prefixed records to a segment and publishing the end of the last
 * complete record through a volatile field; readers follow that end and check each record.
 *
 * <p>Record layout (big-endian): {@code int length | int sequence | length bytes of pattern(sequence)}.
 * {@link #appendAll} runs on one thread; {@link #verifyAll} on any number of threads.
 */
final class AppendedRecords {

    private static final int HEADER = 8;
    private static final int MAX_RECORDS = 10_000;

    private final Segment segment;
    private volatile int published;
    private volatile boolean writerDone;

    AppendedRecords(Segment segment) {
        this.segment = segment;
    }

    /** Appends records until the segment is full; returns how many. */
    int appendAll(AtomicBoolean stop) {
        int position = 0;
        int sequence = 0;
        try {
            while (!stop.get() && sequence < MAX_RECORDS) {
                int length = 1 + (sequence * 389) % 517;
                if (position + HEADER + length > segment.capacity()) {
                    break;
                }
                ByteBuf record = Unpooled.buffer(HEADER + length);
                try {
                    record.writeInt(length).writeInt(sequence)
                            .writeBytes(StorageContractFixture.pattern(sequence, length));
                    segment.write(position, record);
                } finally {
                    record.release();
                }
                position += HEADER + length;
                sequence++;
                published = position;
            }
            return sequence;
        } finally {
            writerDone = true;
        }
    }

    /** Reads and checks every record the writer publishes; returns how many it checked. */
    int verifyAll(AtomicBoolean stop) {
        int position = 0;
        int sequence = 0;
        while (!stop.get()) {
            boolean done = writerDone;
            int end = published;
            while (position < end) {
                position = verifyRecord(position, sequence);
                sequence++;
            }
            if (done && position == published) {
                return sequence;
            }
            // Nothing new yet: give the writer the core rather than spin on a shared machine.
            Thread.yield();
        }
        return sequence;
    }

    private int verifyRecord(int position, int sequence) {
        int length;
        ByteBuf header = segment.read(position, HEADER);
        try {
            length = header.getInt(header.readerIndex());
            int stored = header.getInt(header.readerIndex() + 4);
            if (stored != sequence) {
                throw new AssertionError("record at " + position + " has sequence " + stored + ", expected "
                        + sequence);
            }
        } finally {
            header.release();
        }
        ByteBuf body = segment.read(position + HEADER, length);
        try {
            byte[] actual = new byte[length];
            body.getBytes(body.readerIndex(), actual);
            if (!Arrays.equals(actual, StorageContractFixture.pattern(sequence, length))) {
                throw new AssertionError("record " + sequence + " at " + position + " has wrong content");
            }
        } finally {
            body.release();
        }
        return position + HEADER + length;
    }
}
