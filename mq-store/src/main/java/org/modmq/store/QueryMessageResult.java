package org.modmq.store;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * The answer to a query by key: stored records, newest first; the caller owns them ({@link #close()}
 * releases them). Callers re-check the key and topic, since index hashes may collide.
 *
 * @param messages the records
 * @param commitLogOffsets where each record starts
 * @param indexLastUpdateTimestamp store time of the newest indexed record
 * @param indexLastUpdatePhyOffset the CommitLog's max offset when queried
 */
public record QueryMessageResult(List<ByteBuf> messages, List<Long> commitLogOffsets, long indexLastUpdateTimestamp,
                                 long indexLastUpdatePhyOffset) implements AutoCloseable {

    public QueryMessageResult {
        messages = List.copyOf(messages);
        commitLogOffsets = List.copyOf(commitLogOffsets);
    }

    @Override
    public void close() {
        for (ByteBuf message : messages) {
            if (message.refCnt() > 0) {
                message.release();
            }
        }
    }
}
