package org.modmq.broker.data;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.StoredMessage;
import org.modmq.broker.metadata.Perm;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.broker.metadata.TopicConfig;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.store.MessageIds;

/**
 * CONSUMER_SEND_MSG_BACK (36), protocol notes 9.4: the failed message is stored again in
 * {@code %RETRY%group} (RECONSUMETIMES + 1, {@code RETRY_TOPIC} and {@code ORIGIN_MESSAGE_ID} set),
 * or in {@code %DLQ%group} after {@code maxReconsumeTimes} or for {@code delayLevel} &lt; 0.
 *
 * <p>Not built: the delay. Without the SCHEDULE_TOPIC_XXXX service the retry is stored directly in
 * the retry topic (redelivered at once); the chosen level is kept in the {@code DELAY} property.
 * Thread-safe; runs on the send executor.
 */
public final class SendBackProcessor implements RequestProcessor {

    public static final int[] CODES = {RequestCode.CONSUMER_SEND_MSG_BACK};

    private static final int MAX_RECONSUME_TIMES_VERSION = 121;

    private final DataPath path;

    public SendBackProcessor(DataPath path) {
        this.path = Objects.requireNonNull(path, "path");
    }

    @Override
    public CompletableFuture<RemotingCommand> process(RemotingChannel channel, RemotingCommand request) {
        HeaderFields h = request.headers();
        long offset = h.requireLong("offset");
        String group = h.requireString("group");
        int delayLevel = h.requireInt("delayLevel");
        var metadata = path.runtime().metadata();
        SubscriptionGroupConfig groupConfig = metadata.subscriptionGroups().get(group).orElse(null);
        if (groupConfig == null) {
            return answer(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "subscription group not exist, " + group);
        }
        if (!Perm.writable(path.identity().permission())) {
            return answer(request, ResponseCode.NO_PERMISSION,
                    "the broker[" + path.identity().brokerName() + "] sending message is forbidden");
        }
        if (groupConfig.retryQueueNums() <= 0) {
            return answer(request, ResponseCode.SUCCESS, null);
        }
        TopicConfig retry = metadata.topics().retryTopicOf(group, groupConfig.retryQueueNums());
        StoredMessage stored = path.store().lookMessageByOffset(offset).orElse(null);
        if (stored == null) {
            return answer(request, ResponseCode.SYSTEM_ERROR, "look message by offset failed, " + offset);
        }
        BrokerMessage original = stored.message();
        Map<String, String> properties = original.propertyMap();
        properties.putIfAbsent(MessageProperties.RETRY_TOPIC, original.topic());
        properties.putIfAbsent(MessageProperties.ORIGIN_MESSAGE_ID,
                h.optionalString("originMsgId", MessageIds.offsetMsgId(original.storeHost(), offset)));
        int maxTimes = request.version() >= MAX_RECONSUME_TIMES_VERSION
                ? h.optionalInt("maxReconsumeTimes", groupConfig.retryMaxTimes()) : groupConfig.retryMaxTimes();
        String topic;
        int queueId;
        if (original.reconsumeTimes() >= maxTimes || delayLevel < 0) {
            topic = metadata.topics().dlqTopicOf(group).topicName();
            queueId = 0;
            properties.remove(MessageProperties.DELAY);
        } else {
            topic = retry.topicName();
            queueId = ThreadLocalRandom.current().nextInt(Math.max(1, retry.writeQueueNums()));
            properties.put(MessageProperties.DELAY,
                    Integer.toString(delayLevel == 0 ? 3 + original.reconsumeTimes() : delayLevel));
        }
        properties.put(MessageProperties.WAIT, "false");
        BrokerMessage again = new BrokerMessage(topic, queueId, original.flag(), original.body(),
                MessageProperties.encode(properties), original.bornTimestamp(), original.bornHost(),
                path.storeHost(channel), original.sysFlag(), original.reconsumeTimes() + 1, 0);
        return path.writer().write(List.of(again), false).thenApply(result -> result.status() == PutStatus.PUT_OK
                || result.status() == PutStatus.FLUSH_DISK_TIMEOUT
                ? RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null)
                : RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR, result.status().name()));
    }

    private static CompletableFuture<RemotingCommand> answer(RemotingCommand request, int code, String remark) {
        return CompletableFuture.completedFuture(RemotingCommand.responseTo(request, code, remark));
    }
}
