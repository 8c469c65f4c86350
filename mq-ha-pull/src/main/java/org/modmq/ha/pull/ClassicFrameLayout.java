package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The classic HA wire format (RocketMQ {@code DefaultHAClient} / {@code DefaultHAConnection}, used when
 * {@code enableControllerMode} is off); all integers big-endian, no framing beyond what is shown, no
 * handshake.
 *
 * <pre>
 * slave -> master, a report (the slave's acknowledgement; RocketMQ: slave max phy offset)
 * +---------------------------+
 * | int64 maxOffset           |   8 bytes; the master uses the last complete value it has read
 * +---------------------------+
 *
 * master -> slave, a transfer frame
 * +---------------------------+---------------------+---------------------------+
 * | int64 offset              | int32 size          | body: size bytes          |
 * | (phy offset of byte 0)    | (body size, 0..n)   | raw CommitLog bytes       |
 * +---------------------------+---------------------+---------------------------+
 *   12-byte header; body &lt;= haTransferBatchSize (32 KiB), never past the end of the CommitLog file it
 *   starts in, free to cut a record; size 0 = heartbeat carrying the next offset to be sent
 * </pre>
 */
final class ClassicFrameLayout {

    /** Bytes of one slave report. */
    static final int REPORT_LENGTH = 8;
    /** Bytes of a transfer frame's header. */
    static final int HEADER_LENGTH = 12;
    /** Where the body size sits in the header. */
    static final int SIZE_FIELD_OFFSET = 8;
    /**
     * Largest body a replica accepts (a master of another implementation may send more than 32 KiB; a
     * RocketMQ replica reads into a 4 MiB buffer).
     */
    static final int MAX_BODY = 4 * 1024 * 1024;

    private ClassicFrameLayout() {
    }

    /** A frame header; the caller owns it. */
    static ByteBuf header(ByteBufAllocator allocator, long offset, int size) {
        return allocator.buffer(HEADER_LENGTH, HEADER_LENGTH).writeLong(offset).writeInt(size);
    }

    /** A report; the caller owns it. */
    static ByteBuf report(ByteBufAllocator allocator, long maxOffset) {
        return allocator.buffer(REPORT_LENGTH, REPORT_LENGTH).writeLong(maxOffset);
    }
}
