package org.modmq.broker.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongPredicate;
import org.modmq.broker.config.ConsumeConfig;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.broker.slave.ReplicatedTopics;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;
import org.modmq.remoting.protocol.body.Perm;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.modmq.store.GetMessageResult;

/**
 * PULL_MESSAGE (11) and LITE_PULL_MESSAGE (361), docs/protocol.md section 8.1–8.6: checks, subscription, store
 * read with tag filtering, status mapping, commit-offset piggyback and long polling through a
 * {@link PullHoldAgent}. A FOUND answer's body is a composite of the store's record buffers (no copy),
 * owned by the response from then on. Thread-safe; runs on the pull executor; {@link #close()} drops the
 * held pulls and is idempotent.
 */
public final class PullMessageProcessor implements RequestProcessor, AutoCloseable {

    public static final int[] CODES = {RequestCode.PULL_MESSAGE, RequestCode.LITE_PULL_MESSAGE};

    /** PullSysFlag bits. */
    public static final int FLAG_COMMIT_OFFSET = 0x1;
    public static final int FLAG_SUSPEND = 0x2;
    public static final int FLAG_SUBSCRIPTION = 0x4;

    /** Hold times above this would outlive the stock client's 30 s pull timeout. */
    private static final long MAX_HOLD_MILLIS = 25_000;
    private static final int MAX_MESSAGES = 32;
    private static final int MAX_BYTES = 256 * 1024;
    private static final int MAX_HELD = 10_000;

    private final DataPath path;
    private final PullHoldAgent holds;

    public PullMessageProcessor(DataPath path) {
        this.path = Objects.requireNonNull(path, "path");
        this.holds = new PullHoldAgent(path.runtime().clock(), path.runtime().scheduler(), MAX_HELD,
                (topic, queueId) -> path.store().getMaxOffsetInQueue(topic, queueId),
                (channel, request) -> execute(channel, request, false));
        path.store().addArrivalListener(holds::onArrival);
    }

    @Override
    public CompletableFuture<RemotingCommand> process(RemotingChannel channel, RemotingCommand request) {
        return execute(channel, request, true);
    }

    /** The number of pulls held by long polling now. */
    public int heldPulls() {
        return holds.heldCount();
    }

    private CompletableFuture<RemotingCommand> execute(RemotingChannel channel, RemotingCommand request,
                                                       boolean firstTime) {
        try {
            return pull(channel, request, firstTime);
        } catch (ResponseCodeException e) {
            return CompletableFuture.completedFuture(RemotingCommand.responseTo(request, e.responseCode(), e.remark()));
        }
    }

    private CompletableFuture<RemotingCommand> pull(RemotingChannel channel, RemotingCommand request,
                                                    boolean firstTime) {
        HeaderFields h = request.headers();
        String group = h.requireString("consumerGroup");
        String topicName = h.requireString("topic");
        int queueId = h.requireInt("queueId");
        long offset = h.requireLong("queueOffset");
        int maxMsgNums = h.requireInt("maxMsgNums");
        int sysFlag = h.requireInt("sysFlag");
        long commitOffset = h.requireLong("commitOffset");
        long suspendMillis = h.requireLong("suspendTimeoutMillis");
        long subVersion = h.optionalLong("subVersion", 0);

        if (!Perm.readable(path.identity().permission())) {
            throw forbidden(1, "the broker[" + path.identity().brokerName() + "] pulling message is forbidden");
        }
        SubscriptionGroupConfig groupConfig = path.runtime().metadata().subscriptionGroups().findOrCreate(group)
                .orElseThrow(() -> new ResponseCodeException(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                        "subscription group [" + group + "] does not exist"));
        if (!groupConfig.consumeEnable()) {
            throw forbidden(2, "subscription group no permission, " + group);
        }
        boolean master = path.master();
        TopicConfig topic = path.runtime().metadata().topics().get(topicName)
                .or(() -> master ? Optional.empty()
                        : ReplicatedTopics.standIn(topicName, path.store().queueIds(topicName)))
                .orElseThrow(() -> new ResponseCodeException(ResponseCode.TOPIC_NOT_EXIST,
                        "topic[" + topicName + "] not exist, apply first please!"));
        if (!Perm.readable(topic.perm())) {
            throw forbidden(3, "the topic[" + topicName + "] pulling message is forbidden");
        }
        if (queueId < 0 || queueId >= topic.readQueueNums()) {
            throw new ResponseCodeException(ResponseCode.INVALID_PARAMETER, "queueId[" + queueId
                    + "] is illegal, topic:[" + topicName + "] topicConfig.readQueueNums:[" + topic.readQueueNums()
                    + "] consumer:[" + channel.remoteAddressText() + "]");
        }
        LongPredicate filter = (sysFlag & FLAG_SUBSCRIPTION) != 0
                ? PullFilter.fromExpression(h.optionalString("subscription", "*"),
                h.optionalString("expressionType", "TAG"))
                : PullFilter.fromHeartbeats(path.runtime().consumers().group(group).orElse(null), groupConfig,
                topicName, subVersion);

        RemotingCommand response;
        long started = System.nanoTime();
        try (GetMessageResult result = path.store().getMessages(topicName, queueId, offset,
                Math.max(1, Math.min(maxMsgNums, MAX_MESSAGES)), filter, MAX_BYTES)) {
            path.runtime().stats().recordPullNanos(System.nanoTime() - started);
            response = answer(request, result, offset, master, groupConfig, topic);
            if (result.messages().isEmpty()) {
                path.runtime().stats().recordGetMiss(group, topicName, queueId, result.nextBeginOffset());
            } else {
                path.runtime().stats().recordGet(group, topicName, queueId, result.messages().size(),
                        result.bufferTotalSize(), result.nextBeginOffset());
            }
        }
        if (firstTime && master && (sysFlag & FLAG_COMMIT_OFFSET) != 0) {
            path.runtime().metadata().consumerOffsets().commit(group, topicName, queueId, commitOffset);
        }
        if (firstTime && response.code() == ResponseCode.PULL_NOT_FOUND && (sysFlag & FLAG_SUSPEND) != 0) {
            ConsumeConfig consume = path.runtime().current().consume();
            long hold = consume.longPollingEnable() ? Math.min(Math.max(suspendMillis, 0), MAX_HOLD_MILLIS)
                    : consume.shortPollingTimeMillis();
            CompletableFuture<RemotingCommand> held = holds.hold(channel, request, topicName, queueId, offset, hold);
            if (held != null) {
                return held;
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private RemotingCommand answer(RemotingCommand request, GetMessageResult result, long offset, boolean master,
                                   SubscriptionGroupConfig group, TopicConfig topic) {
        int code;
        long next = result.nextBeginOffset();
        String remark = result.status().name();
        switch (result.status()) {
            case FOUND -> code = ResponseCode.SUCCESS;
            case NO_MATCHED_MESSAGE, MESSAGE_WAS_REMOVING -> code = ResponseCode.PULL_RETRY_IMMEDIATELY;
            case NO_MESSAGE_IN_QUEUE, NO_MATCHED_LOGIC_QUEUE -> code = offset == 0 ? ResponseCode.PULL_NOT_FOUND
                    : ResponseCode.PULL_OFFSET_MOVED;
            case OFFSET_TOO_SMALL, OFFSET_OVERFLOW_BADLY -> code = ResponseCode.PULL_OFFSET_MOVED;
            case OFFSET_OVERFLOW_ONE, OFFSET_FOUND_NULL -> code = ResponseCode.PULL_NOT_FOUND;
            default -> code = ResponseCode.PULL_NOT_FOUND;
        }
        long suggest = path.routing().suggest(group, master, result);
        if (!master && code == ResponseCode.PULL_OFFSET_MOVED) {
            // A slave does not correct offsets: the client retries (on the master) from where it was.
            code = ResponseCode.PULL_RETRY_IMMEDIATELY;
            next = offset;
        }
        RemotingCommand response = RemotingCommand.responseTo(request, code, remark);
        response.putExtField("suggestWhichBrokerId", suggest);
        response.putExtField("groupSysFlag", group.groupSysFlag());
        response.putExtField("nextBeginOffset", next);
        response.putExtField("maxOffset", result.maxOffset());
        response.putExtField("minOffset", result.minOffset());
        response.putExtField("topicSysFlag", topic.topicSysFlag());
        if (code == ResponseCode.SUCCESS) {
            CompositeByteBuf body = ByteBufAllocator.DEFAULT.compositeBuffer(Math.max(2, result.messages().size()));
            for (ByteBuf record : result.messages()) {
                // One reference for the composite; the result's close() releases the store's own one.
                body.addComponent(true, record.retain());
            }
            response.withBody(body);
        }
        return response;
    }

    private static ResponseCodeException forbidden(int type, String remark) {
        return new ResponseCodeException(ResponseCode.NO_PERMISSION, remark + " (forbiddenType " + type + ")");
    }

    @Override
    public void close() {
        holds.close();
    }
}
