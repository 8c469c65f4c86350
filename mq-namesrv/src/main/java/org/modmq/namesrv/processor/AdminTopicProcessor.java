package org.modmq.namesrv.processor;

import java.util.Objects;
import java.util.concurrent.ExecutorService;
import org.modmq.namesrv.body.QueueData;
import org.modmq.namesrv.body.TopicRouteData;
import org.modmq.namesrv.route.RouteTable;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * Administrative route changes: {@code WIPE_WRITE_PERM_OF_BROKER}, {@code ADD_WRITE_PERM_OF_BROKER},
 * {@code DELETE_TOPIC_IN_NAMESRV} and {@code REGISTER_TOPIC_IN_NAMESRV}. Thread-safe.
 */
public final class AdminTopicProcessor {

    /** More broker sets than any cluster has; bounds one REGISTER_TOPIC_IN_NAMESRV. */
    private static final int MAX_QUEUE_DATAS = 10_000;

    private final RouteTable routes;
    private final RequestLimits limits;

    public AdminTopicProcessor(RouteTable routes, RequestLimits limits) {
        this.routes = Objects.requireNonNull(routes, "routes");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** Registers this processor's codes on {@code server}, to run on {@code executor}. */
    public void registerOn(RemotingServer server, ExecutorService executor) {
        RequestProcessor processor = RequestProcessor.sync(this::process);
        for (int code : new int[] {RequestCode.WIPE_WRITE_PERM_OF_BROKER, RequestCode.ADD_WRITE_PERM_OF_BROKER,
                RequestCode.DELETE_TOPIC_IN_NAMESRV, RequestCode.REGISTER_TOPIC_IN_NAMESRV}) {
            server.registerProcessor(code, processor, executor);
        }
    }

    /** Answers one request of this processor's codes. */
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.WIPE_WRITE_PERM_OF_BROKER -> Replies.success(request).putExtField("wipeTopicCount",
                    routes.wipeWritePerm(request.headers().requireString("brokerName")));
            case RequestCode.ADD_WRITE_PERM_OF_BROKER -> Replies.success(request).putExtField("addTopicCount",
                    routes.addWritePerm(request.headers().requireString("brokerName")));
            case RequestCode.DELETE_TOPIC_IN_NAMESRV -> {
                String topic = request.headers().requireString("topic");
                routes.deleteTopic(topic, request.headers().optionalString("clusterName", null));
                yield Replies.success(request);
            }
            case RequestCode.REGISTER_TOPIC_IN_NAMESRV -> registerTopic(request);
            default -> Replies.error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported");
        };
    }

    private RemotingCommand registerTopic(RemotingCommand request) {
        String topic = request.headers().requireString("topic");
        if (topic.isBlank() || topic.length() > limits.maxNameLength()) {
            return Replies.error(request, ResponseCode.INVALID_PARAMETER, "the topic must be 1 to "
                    + limits.maxNameLength() + " characters (" + RequestLimits.MAX_NAME_LENGTH + ")");
        }
        if (request.body().length > 0) {
            TopicRouteData route = Replies.decodeBody(request.body(), TopicRouteData.class);
            if (route == null) {
                return Replies.error(request, ResponseCode.INVALID_PARAMETER, "the body is not a TopicRouteData");
            }
            String problem = queueDataProblem(route.queueDatas());
            if (problem != null) {
                return Replies.error(request, ResponseCode.INVALID_PARAMETER, problem);
            }
            if (route.queueDatas() != null && !route.queueDatas().isEmpty()
                    && !routes.registerTopic(topic, route.queueDatas())) {
                return Replies.error(request, ResponseCode.SYSTEM_ERROR,
                        "topic " + topic + " names a broker that is not registered");
            }
        }
        return Replies.success(request);
    }

    /** Why the queue data of REGISTER_TOPIC_IN_NAMESRV is refused, or null. */
    private static String queueDataProblem(java.util.List<QueueData> queueDatas) {
        if (queueDatas == null) {
            return null;
        }
        if (queueDatas.size() > MAX_QUEUE_DATAS) {
            return "queueDatas has " + queueDatas.size() + " entries, more than " + MAX_QUEUE_DATAS;
        }
        for (QueueData data : queueDatas) {
            if (data == null || data.brokerName() == null || data.readQueueNums() < 0 || data.writeQueueNums() < 0
                    || data.readQueueNums() > RegistrationCheck.MAX_QUEUE_NUMS
                    || data.writeQueueNums() > RegistrationCheck.MAX_QUEUE_NUMS || data.perm() < 0 || data.perm() > 15) {
                return "queueDatas entry " + data + " is not valid: a brokerName, queue counts in [0, "
                        + RegistrationCheck.MAX_QUEUE_NUMS + "] and perm in [0, 15]";
            }
        }
        return null;
    }
}
