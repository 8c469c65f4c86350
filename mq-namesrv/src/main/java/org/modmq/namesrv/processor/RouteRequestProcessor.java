package org.modmq.namesrv.processor;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.modmq.namesrv.body.TopicRouteData;
import org.modmq.namesrv.kv.KvConfigStore;
import org.modmq.namesrv.route.RouteTable;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * Client route lookups: {@code GET_ROUTEINFO_BY_TOPIC} and {@code GET_BROKER_CLUSTER_INFO}.
 * Thread-safe.
 */
public final class RouteRequestProcessor {

    /** Version ordinal of 4.9.4, the first client that gets routes with quoted map keys. */
    static final int VERSION_4_9_4 = 401;
    private static final String FAQ = "\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details.";

    private final RouteTable routes;
    private final KvConfigStore kv;
    private final NamesrvSettings settings;

    public RouteRequestProcessor(RouteTable routes, KvConfigStore kv, NamesrvSettings settings) {
        this.routes = Objects.requireNonNull(routes, "routes");
        this.kv = Objects.requireNonNull(kv, "kv");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** Registers this processor's codes on {@code server}, to run on {@code executor}. */
    public void registerOn(RemotingServer server, ExecutorService executor) {
        RequestProcessor processor = RequestProcessor.sync(this::process);
        server.registerProcessor(RequestCode.GET_ROUTEINFO_BY_TOPIC, processor, executor);
        server.registerProcessor(RequestCode.GET_BROKER_CLUSTER_INFO, processor, executor);
    }

    /** Answers one request of this processor's codes. */
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        if (request.code() == RequestCode.GET_BROKER_CLUSTER_INFO) {
            return Replies.success(request, Json.encode(routes.clusterInfo()));
        }
        if (request.code() != RequestCode.GET_ROUTEINFO_BY_TOPIC) {
            return Replies.error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported");
        }
        HeaderFields headers = request.headers();
        String topic = headers.requireString("topic");
        boolean standardJsonOnly = headers.optionalBoolean("acceptStandardJsonOnly", false);
        Optional<TopicRouteData> found = routes.route(topic);
        if (found.isEmpty()) {
            return Replies.error(request, ResponseCode.TOPIC_NOT_EXIST,
                    "No topic route info in name server for the topic: " + topic + FAQ);
        }
        TopicRouteData route = found.get();
        if (settings.orderMessageEnable()) {
            route = route.withOrderTopicConf(
                    kv.get(BrokerRequestProcessor.ORDER_TOPIC_CONFIG, topic).orElse(null));
        }
        byte[] body = request.version() >= VERSION_4_9_4 || standardJsonOnly
                ? Json.encode(route) : Json.encodeWithBareNumericKeys(route);
        return Replies.success(request, body);
    }
}
