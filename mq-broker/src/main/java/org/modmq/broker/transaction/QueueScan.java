package org.modmq.broker.transaction;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.modmq.api.message.StoredMessage;
import org.modmq.store.GetMessageResult;
import org.modmq.store.GetMessageStatus;
import org.modmq.store.MessageStore;

/**
 * Reads a system queue in order, a chunk at a time, decoded. Records the store no longer holds are
 * skipped (the next offset says where reading went on). Stateless; thread-safe as the store is.
 */
final class QueueScan {

    private static final int CHUNK = 32;
    private static final int CHUNK_BYTES = 4 << 20;
    private static final int PHYSICAL_OFFSET = 28;

    /** Up to 32 messages from {@code from}, and where the next read starts. */
    record Chunk(List<StoredMessage> messages, long next) {
    }

    private QueueScan() {
    }

    static Chunk read(MessageStore store, String topic, long from) {
        try (GetMessageResult result = store.getMessages(topic, TransactionKeys.QUEUE, from, CHUNK, tag -> true,
                CHUNK_BYTES)) {
            List<StoredMessage> messages = new ArrayList<>(result.messages().size());
            for (ByteBuf record : result.messages()) {
                Optional<StoredMessage> message = store.lookMessageByOffset(
                        record.getLong(record.readerIndex() + PHYSICAL_OFFSET));
                message.ifPresent(messages::add);
            }
            long next = result.status() == GetMessageStatus.FOUND || result.status() == GetMessageStatus.OFFSET_TOO_SMALL
                    || result.status() == GetMessageStatus.MESSAGE_WAS_REMOVING
                    || result.status() == GetMessageStatus.OFFSET_FOUND_NULL
                    ? Math.max(from, result.nextBeginOffset()) : from;
            return new Chunk(messages, next);
        }
    }
}
