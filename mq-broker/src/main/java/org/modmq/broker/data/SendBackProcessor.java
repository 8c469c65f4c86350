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
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.broker.schedule.DelayRedirect;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.body.Perm;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.modmq.store.MessageIds;

/**
 * CONSUMER_SEND_MSG_BACK (36), docs/protocol.md section 9.4: the failed message is stored again for
 * {@code %RETRY%group} (RECONSUMETIMES + 1, {@code RETRY_TOPIC} and {@code ORIGIN_MESSAGE_ID} set) through
 * the delay levels: {@code delayLevel} 0 means level {@code 3 + reconsumeTimes}, RocketMQ's rule, so the
 * message waits in SCHEDULE_TOPIC_XXXX and reaches the retry topic when due. It goes to
 * {@code %DLQ%group} (one queue, perm 6, {@code DELAY=0}) once its reconsume times reach
 * {@code maxReconsumeTimes} (the group's {@code retryMaxTimes}, or the header's from V3_4_9 on) or for
 * {@code delayLevel} &lt; 0. An offset where no record starts is refused (SYSTEM_ERROR, RocketMQ's remark)
 * before the group or the retry topic is created. Thread-safe; runs on the send executor.
 */
public final class SendBackProcessor implements RequestProcessor {

    public static final int[] CODES = {RequestCode.CONSUMER_SEND_MSG_BACK};

    /** Request version (V3_4_9's ordinal) from which the header's {@code maxReconsumeTimes} is honoured. */
    private static final int MAX_RECONSUME_TIMES_VERSION = 122;

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
        // Looked up before anything is created: RocketMQ creates the retry topic first and then refuses an
        // offset where no record starts, leaving the topic behind for a request it refused.
        StoredMessage stored = path.store().lookMessageByOffset(offset).orElse(null);
        if (stored == null) {
            return answer(request, ResponseCode.SYSTEM_ERROR, "look message by offset failed, " + offset);
        }
        SubscriptionGroupConfig groupConfig = metadata.subscriptionGroups().findOrCreate(group).orElse(null);
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
        BrokerMessage original = stored.message();
        Map<String, String> properties = original.propertyMap();
        properties.putIfAbsent(MessageProperties.RETRY_TOPIC, original.topic());
        properties.putIfAbsent(MessageProperties.ORIGIN_MESSAGE_ID,
                h.optionalString("originMsgId", MessageIds.offsetMsgId(original.storeHost(), offset)));
        int maxTimes = request.version() >= MAX_RECONSUME_TIMES_VERSION
                ? h.optionalInt("maxReconsumeTimes", groupConfig.retryMaxTimes()) : groupConfig.retryMaxTimes();
        String topic;
        int queueId;
        boolean dlq = original.reconsumeTimes() >= maxTimes || delayLevel < 0;
        if (dlq) {
            topic = metadata.topics().dlqTopicOf(group).topicName();
            queueId = 0;
            properties.put(MessageProperties.DELAY, "0");
        } else {
            properties.put(MessageProperties.DELAY,
                    Integer.toString(delayLevel == 0 ? 3 + original.reconsumeTimes() : delayLevel));
            DelayRedirect.Target target = path.delay().redirect(retry.topicName(),
                    ThreadLocalRandom.current().nextInt(Math.max(1, retry.writeQueueNums())), properties,
                    original.sysFlag());
            topic = target.topic();
            queueId = target.queueId();
        }
        properties.put(MessageProperties.WAIT, "false");
        BrokerMessage again = new BrokerMessage(topic, queueId, original.flag(), original.body(),
                MessageProperties.encode(properties), original.bornTimestamp(), original.bornHost(),
                path.storeHost(channel), original.sysFlag(), original.reconsumeTimes() + 1, 0);
        String originTopic = properties.get(MessageProperties.RETRY_TOPIC);
        return path.writer().write(List.of(again), false).thenApply(result -> {
            if (result.status() != PutStatus.PUT_OK && result.status() != PutStatus.FLUSH_DISK_TIMEOUT) {
                return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR, result.status().name());
            }
            if (dlq) {
                path.runtime().stats().events().sentToDlq(group, originTopic);
            }
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
        });
    }

    private static CompletableFuture<RemotingCommand> answer(RemotingCommand request, int code, String remark) {
        return CompletableFuture.completedFuture(RemotingCommand.responseTo(request, code, remark));
    }
}
