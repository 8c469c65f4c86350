package org.modmq.broker.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.util.Objects;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.store.MessageStore;
import org.modmq.store.QueryMessageResult;

/**
 * Queue bounds and lookups (docs/protocol.md sections 8.4 and 8.8): GET_MAX_OFFSET (30), GET_MIN_OFFSET (31),
 * SEARCH_OFFSET_BY_TIMESTAMP (29), GET_EARLIEST_MSG_STORETIME (32), QUERY_MESSAGE (12) and
 * VIEW_MESSAGE_BY_ID (33). Record bodies are the store's buffers, handed to the response without a
 * copy. Thread-safe.
 */
public final class QueryMessageProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.GET_MAX_OFFSET, RequestCode.GET_MIN_OFFSET,
        RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, RequestCode.GET_EARLIEST_MSG_STORETIME, RequestCode.QUERY_MESSAGE,
        RequestCode.VIEW_MESSAGE_BY_ID};

    private static final int DEFAULT_QUERY_MAX_NUM = 32;

    private final MessageStore store;

    public QueryMessageProcessor(DataPath path) {
        this.store = Objects.requireNonNull(path, "path").store();
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        HeaderFields h = request.headers();
        return switch (request.code()) {
            case RequestCode.GET_MAX_OFFSET -> offset(request,
                    store.getMaxOffsetInQueue(h.requireString("topic"), h.requireInt("queueId")));
            case RequestCode.GET_MIN_OFFSET -> offset(request,
                    store.getMinOffsetInQueue(h.requireString("topic"), h.requireInt("queueId")));
            case RequestCode.SEARCH_OFFSET_BY_TIMESTAMP -> search(request, h);
            case RequestCode.GET_EARLIEST_MSG_STORETIME -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null)
                    .putExtField("timestamp", store.getEarliestMessageTime(h.requireString("topic"),
                            h.requireInt("queueId")));
            case RequestCode.QUERY_MESSAGE -> query(request, h);
            case RequestCode.VIEW_MESSAGE_BY_ID -> view(request, h.requireLong("offset"));
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported");
        };
    }

    private static RemotingCommand offset(RemotingCommand request, long offset) {
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null).putExtField("offset", offset);
    }

    private RemotingCommand search(RemotingCommand request, HeaderFields h) {
        String topic = h.requireString("topic");
        int queueId = h.requireInt("queueId");
        long timestamp = h.requireLong("timestamp");
        long offset = store.getOffsetByTime(topic, queueId, timestamp);
        if ("UPPER".equalsIgnoreCase(h.optionalString("boundaryType", "LOWER"))) {
            // UPPER: the last entry stored at or before the timestamp.
            long min = store.getMinOffsetInQueue(topic, queueId);
            long candidate = offset;
            long max = store.getMaxOffsetInQueue(topic, queueId);
            while (candidate < max && store.getMessageStoreTimestamp(topic, queueId, candidate) <= timestamp) {
                candidate++;
            }
            offset = Math.max(min, candidate - 1);
        }
        return offset(request, offset);
    }

    private RemotingCommand query(RemotingCommand request, HeaderFields h) {
        String topic = h.requireString("topic");
        String key = h.requireString("key");
        int maxNum = h.requireInt("maxNum");
        long begin = h.requireLong("beginTimestamp");
        long end = h.requireLong("endTimestamp");
        if ("true".equalsIgnoreCase(request.extField("_UNIQUE_KEY_QUERY"))) {
            maxNum = DEFAULT_QUERY_MAX_NUM;
        }
        QueryMessageResult result = store.queryMessage(topic, key, maxNum, begin, end);
        if (result.messages().isEmpty()) {
            result.close();
            return RemotingCommand.responseTo(request, ResponseCode.QUERY_NOT_FOUND,
                    "can not find message, maybe time range not correct");
        }
        CompositeByteBuf body = ByteBufAllocator.DEFAULT.compositeBuffer(Math.max(2, result.messages().size()));
        for (ByteBuf record : result.messages()) {
            body.addComponent(true, record.retain());
        }
        result.close();
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null)
                .putExtField("indexLastUpdateTimestamp", result.indexLastUpdateTimestamp())
                .putExtField("indexLastUpdatePhyoffset", result.indexLastUpdatePhyOffset())
                .withBody(body);
    }

    private RemotingCommand view(RemotingCommand request, long offset) {
        ByteBuf record = store.readMessage(offset);
        if (record == null) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR,
                    "can not find message by the offset, " + offset);
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null).withBody(record);
    }
}
