package org.modmq.store;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Objects;

/**
 * The answer to a pull read. {@code messages} are the stored records (5.1 layout), in queue order,
 * each a read view the caller owns: send them (e.g. as a composite body) or {@link #close()} the
 * result, which releases every one of them exactly once.
 *
 * @param status the outcome
 * @param nextBeginOffset where the consumer continues
 * @param minOffset the queue's min offset
 * @param maxOffset the queue's max offset
 * @param messages the records; empty unless FOUND
 * @param queueOffsets the queue offset of each record
 */
public record GetMessageResult(GetMessageStatus status, long nextBeginOffset, long minOffset, long maxOffset,
                               List<ByteBuf> messages, List<Long> queueOffsets) implements AutoCloseable {

    public GetMessageResult {
        Objects.requireNonNull(status, "status");
        messages = List.copyOf(messages);
        queueOffsets = List.copyOf(queueOffsets);
    }

    /** Total bytes of the records. */
    public int bufferTotalSize() {
        return messages.stream().mapToInt(ByteBuf::readableBytes).sum();
    }

    /** Releases every record still referenced once. */
    @Override
    public void close() {
        for (ByteBuf message : messages) {
            if (message.refCnt() > 0) {
                message.release();
            }
        }
    }
}
