package org.modmq.broker.timer;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongPredicate;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.StoredMessage;
import org.modmq.store.AppendedPut;
import org.modmq.store.GetMessageResult;
import org.modmq.store.MessageStore;

/** {@link TimerAccess} over the broker's {@link MessageStore}. Stateless apart from the store; thread-safe. */
final class StoreTimerAccess implements TimerAccess {

    /** PHYSICALOFFSET in the stored record (docs/store-format.md section 2). */
    private static final int PHYSICAL_OFFSET_AT = 28;
    private static final int MAX_BYTES = 4 << 20;

    private static final long MARKER_CODE = MessageProperties.tagsCode(TimerProperties.PROGRESS_TAG);

    private final MessageStore store;
    private final InetSocketAddress storeHost;

    StoreTimerAccess(MessageStore store, InetSocketAddress storeHost) {
        this.store = Objects.requireNonNull(store, "store");
        this.storeHost = Objects.requireNonNull(storeHost, "storeHost");
    }

    @Override
    public InetSocketAddress storeHost() {
        return storeHost;
    }

    @Override
    public boolean master() {
        return store.role().master();
    }

    @Override
    public long minOffset() {
        return store.getMinOffsetInQueue(TimerProperties.TOPIC, 0);
    }

    @Override
    public long maxOffset() {
        return store.getMaxOffsetInQueue(TimerProperties.TOPIC, 0);
    }

    @Override
    public Batch read(long queueOffset, int max) {
        return read(queueOffset, max, code -> true);
    }

    @Override
    public Batch readMarkers(long queueOffset, int max) {
        return read(queueOffset, max, code -> code == MARKER_CODE);
    }

    private Batch read(long queueOffset, int max, LongPredicate filter) {
        try (GetMessageResult result = store.getMessages(TimerProperties.TOPIC, 0, queueOffset, max, filter,
                MAX_BYTES)) {
            List<StoredMessage> messages = new ArrayList<>(result.messages().size());
            for (ByteBuf record : result.messages()) {
                store.lookMessageByOffset(record.getLong(record.readerIndex() + PHYSICAL_OFFSET_AT))
                        .ifPresent(messages::add);
            }
            return new Batch(messages, result.nextBeginOffset());
        }
    }

    @Override
    public Optional<StoredMessage> message(long commitLogOffset) {
        return store.lookMessageByOffset(commitLogOffset);
    }

    @Override
    public AppendedPut append(BrokerMessage message) {
        return store.append(List.of(message), true);
    }
}
