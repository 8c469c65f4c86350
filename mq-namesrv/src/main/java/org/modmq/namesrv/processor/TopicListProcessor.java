package org.modmq.namesrv.processor;

import java.util.Objects;
import java.util.concurrent.ExecutorService;
import org.modmq.namesrv.body.TopicList;
import org.modmq.namesrv.route.RouteTable;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * Topic lists: all topics, per cluster, "system" (cluster and broker names) and the unit-topic
 * lists. Thread-safe.
 */
public final class TopicListProcessor {

    private static final int UNIT = 1;
    private static final int UNIT_SUB = 2;

    private final RouteTable routes;
    private final NamesrvSettings settings;

    public TopicListProcessor(RouteTable routes, NamesrvSettings settings) {
        this.routes = Objects.requireNonNull(routes, "routes");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** Registers this processor's codes on {@code server}, to run on {@code executor}. */
    public void registerOn(RemotingServer server, ExecutorService executor) {
        RequestProcessor processor = RequestProcessor.sync(this::process);
        for (int code : new int[] {RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, RequestCode.GET_TOPICS_BY_CLUSTER,
                RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_NS, RequestCode.GET_UNIT_TOPIC_LIST,
                RequestCode.GET_HAS_UNIT_SUB_TOPIC_LIST, RequestCode.GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST}) {
            server.registerProcessor(code, processor, executor);
        }
    }

    /** Answers one request of this processor's codes. */
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        int code = request.code();
        if (code == RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER) {
            return settings.enableAllTopicList() ? reply(request, routes.allTopics()) : disabled(request);
        }
        if (code == RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_NS) {
            return reply(request, routes.systemTopics());
        }
        if (!settings.enableTopicList()) {
            return disabled(request);
        }
        return switch (code) {
            case RequestCode.GET_TOPICS_BY_CLUSTER ->
                    reply(request, routes.topicsOfCluster(request.headers().requireString("cluster")));
            case RequestCode.GET_UNIT_TOPIC_LIST -> reply(request, routes.topicsWithSysFlag(f -> (f & UNIT) != 0));
            case RequestCode.GET_HAS_UNIT_SUB_TOPIC_LIST ->
                    reply(request, routes.topicsWithSysFlag(f -> (f & UNIT_SUB) != 0));
            case RequestCode.GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST ->
                    reply(request, routes.topicsWithSysFlag(f -> (f & UNIT) == 0 && (f & UNIT_SUB) != 0));
            default -> Replies.error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + code + " not supported");
        };
    }

    private static RemotingCommand reply(RemotingCommand request, TopicList list) {
        return Replies.success(request, Json.encode(list));
    }

    private static RemotingCommand disabled(RemotingCommand request) {
        return Replies.error(request, ResponseCode.SYSTEM_ERROR, "disable");
    }
}
