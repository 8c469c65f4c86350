package org.modmq.broker.data;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;
import org.modmq.broker.metadata.SubscriptionGroupConfig;
import org.modmq.broker.metadata.TopicConfigTable;
import org.modmq.broker.metadata.TopicValidator;
import org.modmq.broker.schedule.DelayRedirect;
import org.modmq.broker.stats.TrafficCounters;
import org.modmq.broker.timer.TimerIntake;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;
import org.modmq.remoting.protocol.body.Perm;
import org.modmq.remoting.protocol.body.TopicConfig;

/**
 * SEND_MESSAGE (10), SEND_MESSAGE_V2 (310) and SEND_BATCH_MESSAGE (320), processed as docs/protocol.md section 7.2
 * describe: checks (role, permission, topic name, then {@link SendChecks}: body size, sysFlag, system
 * properties, batch rules; then the queue), auto-creation of the topic (never of a system name), the
 * retry and dead-letter rules, broker-added properties, append, then the answer of
 * {@link SendResponses}. Bad input is answered with a code and a remark and stores nothing.
 *
 * <p>A single message with {@code DELAY} &gt; 0 is stored in SCHEDULE_TOPIC_XXXX and delivered later
 * ({@link org.modmq.broker.schedule.DelayRedirect}); a batch whose own properties carry one is refused
 * with MESSAGE_ILLEGAL, as RocketMQ refuses it. A single message with a timer property
 * ({@code TIMER_DELIVER_MS}, {@code TIMER_DELAY_MS}, {@code TIMER_DELAY_SEC}) passes {@link TimerIntake}:
 * a future one is stored into {@code rmq_sys_wheel_timer} and delivered by the timer agent. A prepared
 * transactional send ({@code TRAN_MSG=true}) is stored as its half message (see
 * {@code org.modmq.broker.transaction}). Thread-safe; runs on the send executor.
 */
public final class SendMessageProcessor implements RequestProcessor {

    public static final int[] CODES = {RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2,
        RequestCode.SEND_BATCH_MESSAGE};

    /** Request version (V3_4_9's ordinal) from which the header's {@code maxReconsumeTimes} is honoured. */
    private static final int MAX_RECONSUME_TIMES_VERSION = 122;
    private static final int MAX_PROPERTIES_BYTES = Short.MAX_VALUE;

    private final DataPath path;
    private final TimerIntake timers;

    public SendMessageProcessor(DataPath path) {
        this.path = Objects.requireNonNull(path, "path");
        this.timers = new TimerIntake(path.runtime().config().timer(), path.runtime().clock());
    }

    @Override
    public CompletableFuture<RemotingCommand> process(RemotingChannel channel, RemotingCommand request) {
        try {
            return send(channel, request);
        } catch (ResponseCodeException e) {
            return CompletableFuture.completedFuture(SendResponses.error(request, e.responseCode(), e.remark()));
        }
    }

    private CompletableFuture<RemotingCommand> send(RemotingChannel channel, RemotingCommand request) {
        if (!path.master()) {
            throw new ResponseCodeException(ResponseCode.SERVICE_NOT_AVAILABLE,
                    "broker " + path.identity().brokerName() + " is a SLAVE and does not accept messages; "
                            + "send to its master");
        }
        if (!Perm.writable(path.identity().permission())) {
            throw new ResponseCodeException(ResponseCode.NO_PERMISSION, "the broker["
                    + path.identity().brokerName() + "] sending message is forbidden");
        }
        SendHeader header = SendHeader.parse(request);
        checkTopicName(header.topic());
        boolean batch = batch(request, header);
        SendChecks.sysFlag(header.sysFlag(), batch);
        if (batch) {
            SendChecks.batchTopic(header.topic());
        }
        List<BatchBodyDecoder.Entry> entries = entries(request, header, batch);
        checkProperties(entries, header, batch);
        TopicConfig topic = resolveTopic(header);
        int queueId = chooseQueue(header, topic);
        String targetTopic = topic.topicName();
        boolean dlq = false;
        String dlqOf = null;
        if (TopicValidator.isRetryTopic(targetTopic)) {
            String group = targetTopic.substring(TopicValidator.RETRY_PREFIX.length());
            SubscriptionGroupConfig groupConfig = path.runtime().metadata().subscriptionGroups().findOrCreate(group)
                    .orElseThrow(() -> new ResponseCodeException(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                            "subscription group not exist, " + group));
            int max = request.version() >= MAX_RECONSUME_TIMES_VERSION && header.maxReconsumeTimes() >= 0
                    ? header.maxReconsumeTimes() : groupConfig.retryMaxTimes();
            if (header.reconsumeTimes() > max) {
                targetTopic = path.runtime().metadata().topics().dlqTopicOf(group).topicName();
                queueId = 0;
                dlq = true;
                dlqOf = group;
            }
        }
        Built built = build(channel, request, entries, header, targetTopic, queueId, dlq);
        List<BrokerMessage> messages = timerRedirect(built.messages(), dlq);
        // Transactions: a prepared send is stored as its half message; the answer still names the real queue.
        List<BrokerMessage> stored = path.transactions().toStore(messages);
        long started = System.nanoTime();
        String dlqGroup = dlqOf;
        return path.writer().write(stored, built.waitStore()).thenApply(result -> {
            path.runtime().stats().recordPutNanos(System.nanoTime() - started, result.commitLogOffset() >= 0);
            if (result.commitLogOffset() >= 0) {
                BrokerMessage first = built.messages().get(0);
                path.runtime().stats().recordPut(messages.get(0).topic(),
                        TrafficCounters.MessageType.of(first.sysFlag(), first.properties()), messages.size(),
                        bodyBytes(messages));
                if (dlqGroup != null) {
                    path.runtime().stats().events().sentToDlq(dlqGroup, header.topic());
                } else if (stored != messages) {
                    path.runtime().stats().events().halfStored(messages.get(0).topic());
                }
            }
            return SendResponses.of(request, result, messages.get(0));
        });
    }

    /** A single message with a timer property goes to rmq_sys_wheel_timer first (org.modmq.broker.timer). */
    private List<BrokerMessage> timerRedirect(List<BrokerMessage> messages, boolean dlq) {
        return messages.size() == 1 && !dlq ? List.of(timers.redirect(messages.get(0))) : messages;
    }

    private static long bodyBytes(List<BrokerMessage> messages) {
        long bytes = 0;
        for (BrokerMessage message : messages) {
            bytes += message.body().length;
        }
        return bytes;
    }

    private static void checkTopicName(String topic) {
        TopicValidator.problem(topic).ifPresent(problem -> {
            throw new ResponseCodeException(ResponseCode.INVALID_PARAMETER, problem);
        });
        if (TopicValidator.isNotAllowedToSend(topic)) {
            throw new ResponseCodeException(ResponseCode.NO_PERMISSION,
                    "Sending message to topic[" + topic + "] is forbidden.");
        }
    }

    private TopicConfig resolveTopic(SendHeader header) {
        TopicConfigTable topics = path.runtime().metadata().topics();
        String name = header.topic();
        TopicConfig topic = topics.get(name)
                .or(() -> TopicValidator.isRetryTopic(name) ? java.util.Optional.of(createRetryOnSend(name))
                        : createOnSend(topics, header))
                .orElseThrow(() -> new ResponseCodeException(ResponseCode.TOPIC_NOT_EXIST,
                        "topic[" + name + "] not exist, apply first please!"));
        if (!Perm.writable(topic.perm())) {
            throw new ResponseCodeException(ResponseCode.NO_PERMISSION,
                    "the topic[" + name + "] sending message is forbidden");
        }
        return topic;
    }

    /** {@code %RETRY%group} with one queue, created only for a group that exists (or may be created). */
    private TopicConfig createRetryOnSend(String name) {
        String group = name.substring(TopicValidator.RETRY_PREFIX.length());
        if (path.runtime().metadata().subscriptionGroups().findOrCreate(group).isEmpty()) {
            throw new ResponseCodeException(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                    "subscription group not exist, " + group);
        }
        return path.runtime().metadata().topics().retryTopicOf(group, 1);
    }

    /**
     * Auto-creation from the template the producer names; never of a system name (the trace topic aside,
     * which stock clients with message tracing send to), which only the broker creates.
     */
    private static java.util.Optional<TopicConfig> createOnSend(TopicConfigTable topics, SendHeader header) {
        String name = header.topic();
        if (TopicValidator.isSystemName(name) && !TopicValidator.TRACE_TOPIC.equals(name)) {
            throw new ResponseCodeException(ResponseCode.INVALID_PARAMETER,
                    "The topic[" + name + "] is conflict with system topic.");
        }
        return topics.createFromTemplate(name, header.defaultTopic(), header.defaultTopicQueueNums(), 0);
    }

    private static int chooseQueue(SendHeader header, TopicConfig topic) {
        int queueId = header.queueId();
        if (queueId >= topic.queueCount()) {
            throw new ResponseCodeException(ResponseCode.INVALID_PARAMETER, "queueId[" + queueId
                    + "] is illegal, topic:[" + topic.topicName() + "] topicConfig.writeQueueNums:["
                    + topic.writeQueueNums() + "] readQueueNums:[" + topic.readQueueNums() + "]");
        }
        return queueId < 0 ? ThreadLocalRandom.current().nextInt(Math.max(1, topic.writeQueueNums())) : queueId;
    }

    private static boolean batch(RemotingCommand request, SendHeader header) {
        return request.code() == RequestCode.SEND_BATCH_MESSAGE || header.batch();
    }

    /**
     * The messages of the request, checked against {@code maxMessageSize} (in force now) before anything
     * is created: as in RocketMQ it bounds a single message's body, and a batch's whole body.
     */
    private List<BatchBodyDecoder.Entry> entries(RemotingCommand request, SendHeader header, boolean batch) {
        SendChecks.bodySize(request.body().length, batch, path.runtime().current().store().maxMessageSize());
        return batch ? BatchBodyDecoder.decode(request.body())
                : List.of(new BatchBodyDecoder.Entry(header.flag(), request.body(), ""));
    }

    /** The system properties of every message, before anything is created. */
    private static void checkProperties(List<BatchBodyDecoder.Entry> entries, SendHeader header, boolean batch) {
        if (mayCarryChecked(header.properties())) {
            Map<String, String> own = MessageProperties.decode(header.properties());
            SendChecks.properties(own);
            if (batch && DelayRedirect.level(own) > 0) {
                throw new ResponseCodeException(ResponseCode.MESSAGE_ILLEGAL, "a batch cannot have a delay level");
            }
        }
        for (BatchBodyDecoder.Entry entry : entries) {
            if (mayCarryChecked(entry.properties())) {
                SendChecks.properties(MessageProperties.decode(entry.properties()));
            }
        }
    }

    /** A cheap test on the encoded string, so that plain messages are not decoded twice. */
    private static boolean mayCarryChecked(String encoded) {
        return encoded.contains("DELAY") || encoded.contains("TIMER_") || encoded.contains("INNER_NUM");
    }

    /** The messages to store and whether the request asks the answer to wait for the store. */
    private record Built(List<BrokerMessage> messages, boolean waitStore) {
    }

    private Built build(RemotingChannel channel, RemotingCommand request, List<BatchBodyDecoder.Entry> entries,
                        SendHeader header, String topic, int queueId, boolean dlq) {
        boolean batch = batch(request, header);
        List<BrokerMessage> messages = new ArrayList<>(entries.size());
        // The header's WAIT: a single message's own, a batch's for the whole request.
        boolean waitStore = !"false".equals(MessageProperties.value(header.properties(), MessageProperties.WAIT));
        InetSocketAddress storeHost = path.storeHost(channel);
        for (BatchBodyDecoder.Entry entry : entries) {
            // A message of a batch keeps its own properties; the batch's (the header's: its own UNIQ_KEY,
            // WAIT) are not added to them. RocketMQ up to 5.3.3 appended them, so that every message of a
            // batch was consumed with the batch's UNIQ_KEY as its msgId, and stopped (apache/rocketmq#9416).
            String combined = batch ? entry.properties() : header.properties();
            EncodedProperties plain = dlq ? null : EncodedProperties.parse(combined);
            DelayRedirect.Target target;
            String encoded;
            if (plain != null && (batch || plain.get(MessageProperties.DELAY) == null)) {
                // Nothing to redirect or remove: the string is completed in place (EncodedProperties).
                target = new DelayRedirect.Target(topic, queueId);
                encoded = plain.completed(path.identity().clusterName(), path::newUniqueKey);
            } else {
                Map<String, String> properties = MessageProperties.decode(combined);
                if (dlq) {
                    properties.remove(MessageProperties.DELAY);
                }
                target = dlq || batch ? new DelayRedirect.Target(topic, queueId)
                        : path.delay().redirect(topic, queueId, properties, header.sysFlag());
                encoded = MessageProperties.encode(BrokerProperties.complete(properties, path));
            }
            // A UTF-16 unit never takes more than 3 UTF-8 bytes: only long strings need the exact count.
            if (encoded.length() * 3L > MAX_PROPERTIES_BYTES
                    && encoded.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_PROPERTIES_BYTES) {
                throw SendChecks.tooLarge(path.runtime().current().store().maxMessageSize(),
                        "properties longer than " + MAX_PROPERTIES_BYTES + " bytes");
            }
            messages.add(new BrokerMessage(target.topic(), target.queueId(), entry.flag(), entry.body(), encoded,
                    header.bornTimestamp(), channel.remoteAddress(), storeHost, header.sysFlag(),
                    header.reconsumeTimes(), 0));
        }
        return new Built(messages, waitStore);
    }
}
