package org.modmq.namesrv.processor;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.zip.CRC32;
import org.modmq.namesrv.body.BrokerMemberGroupResponse;
import org.modmq.namesrv.body.KVTable;
import org.modmq.namesrv.kv.KvConfigStore;
import org.modmq.namesrv.route.BrokerRegistration;
import org.modmq.namesrv.route.DataVersionCheck;
import org.modmq.namesrv.route.RegisterOutcome;
import org.modmq.namesrv.route.RouteTable;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.RegisterBrokerBody;
import org.modmq.remoting.protocol.body.TopicConfigSerializeWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requests that brokers send: {@code REGISTER_BROKER}, {@code UNREGISTER_BROKER},
 * {@code BROKER_HEARTBEAT}, {@code QUERY_DATA_VERSION} and {@code GET_BROKER_MEMBER_GROUP}.
 * Thread-safe (state lives in the route table and the KV store).
 */
public final class BrokerRequestProcessor {

    /** KV namespace whose table is returned to registering brokers and used for {@code orderTopicConf}. */
    public static final String ORDER_TOPIC_CONFIG = "ORDER_TOPIC_CONFIG";
    /** First broker version whose registration body is a {@code RegisterBrokerBody}. */
    private static final int VERSION_3_0_11 = 37;

    private static final Logger LOG = LoggerFactory.getLogger(BrokerRequestProcessor.class);

    private final RouteTable routes;
    private final KvConfigStore kv;
    private final RegistrationCheck check;
    private final int maxBrokers;

    /** @param limits what one registration may carry; a registration beyond them is refused whole */
    public BrokerRequestProcessor(RouteTable routes, KvConfigStore kv, RequestLimits limits) {
        this.routes = Objects.requireNonNull(routes, "routes");
        this.kv = Objects.requireNonNull(kv, "kv");
        this.check = new RegistrationCheck(limits);
        this.maxBrokers = limits.maxBrokers();
    }

    /** Registers this processor's codes on {@code server}, to run on {@code executor}. */
    public void registerOn(RemotingServer server, ExecutorService executor) {
        RequestProcessor processor = RequestProcessor.sync(this::process);
        for (int code : new int[] {RequestCode.REGISTER_BROKER, RequestCode.UNREGISTER_BROKER,
                RequestCode.BROKER_HEARTBEAT, RequestCode.QUERY_DATA_VERSION, RequestCode.GET_BROKER_MEMBER_GROUP}) {
            server.registerProcessor(code, processor, executor);
        }
    }

    /** Answers one request of this processor's codes. */
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.REGISTER_BROKER -> register(channel, request);
            case RequestCode.UNREGISTER_BROKER -> unregister(request);
            case RequestCode.BROKER_HEARTBEAT -> heartbeat(request);
            case RequestCode.QUERY_DATA_VERSION -> queryDataVersion(request);
            case RequestCode.GET_BROKER_MEMBER_GROUP -> memberGroup(request);
            default -> Replies.error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported");
        };
    }

    private RemotingCommand register(RemotingChannel channel, RemotingCommand request) {
        HeaderFields headers = request.headers();
        String brokerName = headers.requireString("brokerName");
        String brokerAddr = headers.requireString("brokerAddr");
        String clusterName = headers.requireString("clusterName");
        String haServerAddr = headers.requireString("haServerAddr");
        long brokerId = headers.requireLong("brokerId");
        Long timeout = headers.has("heartbeatTimeoutMillis") ? headers.requireLong("heartbeatTimeoutMillis") : null;
        Boolean actingMaster = headers.has("enableActingMaster") ? headers.requireBoolean("enableActingMaster") : null;
        boolean compressed = headers.optionalBoolean("compressed", false);
        int bodyCrc32 = headers.optionalInt("bodyCrc32", 0);
        String zoneName = headers.optionalString("__ZONE_NAME", null);

        byte[] body = request.body();
        Optional<String> problem = check.bodyProblem(body.length)
                .or(() -> check.nameProblem("clusterName", clusterName))
                .or(() -> check.nameProblem("brokerName", brokerName))
                .or(() -> check.nameProblem("brokerAddr", brokerAddr))
                .or(() -> check.nameProblem("haServerAddr", haServerAddr))
                .or(() -> check.nameProblem("__ZONE_NAME", zoneName));
        if (problem.isPresent()) {
            return refuse(request, brokerAddr, problem.get());
        }
        if (bodyCrc32 != 0 && bodyCrc32 != crc32(body)) {
            LOG.warn("registration of {} ({}) refused: body CRC32 {} does not match header bodyCrc32 {}",
                    brokerAddr, brokerName, crc32(body), bodyCrc32);
            return Replies.error(request, ResponseCode.SYSTEM_ERROR, "crc32 not match");
        }
        if (compressed) {
            return Replies.error(request, ResponseCode.SYSTEM_ERROR,
                    "compressed registration bodies are not supported; register with compressedRegister=false");
        }
        RegisterBrokerBody decoded;
        try {
            decoded = decodeRegistration(body, request.version());
        } catch (ResponseCodeException e) {
            return refuse(request, brokerAddr, e.remark());
        }
        problem = check.bodyProblem(decoded);
        if (problem.isPresent()) {
            return refuse(request, brokerAddr, problem.get());
        }
        if (routes.liveBrokerCount() >= maxBrokers && routes.liveInfo(clusterName, brokerAddr).isEmpty()) {
            return refuse(request, brokerAddr, routes.liveBrokerCount() + " brokers are live, "
                    + RequestLimits.MAX_BROKERS + "=" + maxBrokers);
        }
        TopicConfigSerializeWrapper topics = decoded.topicConfigSerializeWrapper() != null
                ? decoded.topicConfigSerializeWrapper() : new TopicConfigSerializeWrapper(DataVersion.ZERO, Map.of());

        RegisterOutcome outcome = routes.register(new BrokerRegistration(clusterName, brokerAddr, brokerName, brokerId,
                haServerAddr, zoneName, timeout, actingMaster, topics, decoded.filterServerList(), channel));
        if (outcome.status() == RegisterOutcome.Status.INCREMENT_BEFORE_FULL_REGISTRATION) {
            return Replies.error(request, ResponseCode.SYSTEM_ERROR, "register broker failed");
        }
        RemotingCommand response = Replies.success(request);
        response.putExtField("masterAddr", outcome.masterAddr());
        response.putExtField("haServerAddr", outcome.haServerAddr());
        kv.namespace(ORDER_TOPIC_CONFIG).ifPresent(table -> response.withBody(Json.encode(new KVTable(table))));
        return response;
    }

    /** Refuses a registration whole: nothing of it reaches the route table. */
    private static RemotingCommand refuse(RemotingCommand request, String brokerAddr, String why) {
        String shown = brokerAddr.length() > 64 ? brokerAddr.substring(0, 64) + "..." : brokerAddr;
        LOG.warn("registration of {} refused: {}", shown, why);
        return Replies.error(request, ResponseCode.SYSTEM_ERROR, "register broker refused: " + why);
    }

    private static RegisterBrokerBody decodeRegistration(byte[] body, int version) {
        if (body.length == 0) {
            return new RegisterBrokerBody(null, null);
        }
        if (version < VERSION_3_0_11) {
            // Brokers older than 3.0.11 send the bare wrapper. A client that never set its remoting
            // version also sends 0, so accept the modern shape too when the body has it.
            JsonNode tree = Replies.decodeBody(body, JsonNode.class);
            if (tree == null || !tree.isObject()) {
                throw new ResponseCodeException(ResponseCode.SYSTEM_ERROR,
                        "body is not a valid RegisterBrokerBody: not a JSON object");
            }
            if (!tree.has("topicConfigSerializeWrapper")) {
                return new RegisterBrokerBody(null, Replies.decodeBody(body, TopicConfigSerializeWrapper.class));
            }
        }
        RegisterBrokerBody decoded = Replies.decodeBody(body, RegisterBrokerBody.class);
        if (decoded == null) {
            throw new ResponseCodeException(ResponseCode.SYSTEM_ERROR, "body is not a valid RegisterBrokerBody: null");
        }
        return decoded;
    }

    /** CRC32 of {@code body} masked to 31 bits, as brokers put it in {@code bodyCrc32}. */
    static int crc32(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }

    private RemotingCommand unregister(RemotingCommand request) {
        HeaderFields headers = request.headers();
        String brokerName = headers.requireString("brokerName");
        String brokerAddr = headers.requireString("brokerAddr");
        String clusterName = headers.requireString("clusterName");
        long brokerId = headers.requireLong("brokerId");
        routes.unregister(clusterName, brokerAddr, brokerName, brokerId);
        return Replies.success(request);
    }

    private RemotingCommand heartbeat(RemotingCommand request) {
        HeaderFields headers = request.headers();
        String clusterName = headers.requireString("clusterName");
        String brokerAddr = headers.requireString("brokerAddr");
        headers.requireString("brokerName");
        routes.refresh(clusterName, brokerAddr);
        return Replies.success(request);
    }

    private RemotingCommand queryDataVersion(RemotingCommand request) {
        HeaderFields headers = request.headers();
        headers.requireString("brokerName");
        String brokerAddr = headers.requireString("brokerAddr");
        String clusterName = headers.requireString("clusterName");
        headers.requireLong("brokerId");
        DataVersion brokerVersion = request.body().length == 0
                ? DataVersion.ZERO : Replies.decodeBody(request.body(), DataVersion.class);
        DataVersionCheck check = routes.checkDataVersion(clusterName, brokerAddr, brokerVersion);
        RemotingCommand response = Replies.success(request);
        response.putExtField("changed", check.changed());
        if (check.stored() != null) {
            response.withBody(Json.encode(check.stored()));
        }
        return response;
    }

    private RemotingCommand memberGroup(RemotingCommand request) {
        HeaderFields headers = request.headers();
        String clusterName = headers.requireString("clusterName");
        String brokerName = headers.requireString("brokerName");
        return Replies.success(request,
                Json.encode(new BrokerMemberGroupResponse(routes.memberGroup(clusterName, brokerName))));
    }
}
