package org.modmq.controller.processor;

import com.fasterxml.jackson.core.type.TypeReference;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.modmq.controller.body.SyncStateSet;
import org.modmq.controller.core.BrokerRegistrations;
import org.modmq.controller.core.ControllerReply;
import org.modmq.controller.core.LeaderGate;
import org.modmq.controller.core.MasterElections;
import org.modmq.controller.core.ReplicaQueries;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.JsonBodyException;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * The controller's remoting front: decodes the headers and bodies of the leader-only requests 1001-1004,
 * 1006 and 1011-1013 with RocketMQ's field names, hands them to the core and encodes the answers. A
 * peer that may not answer them says {@code CONTROLLER_NOT_LEADER} with {@code controllerLeaderId} and
 * {@code controllerLeaderAddress} when it knows the leader. A missing or malformed header field is
 * answered {@code SYSTEM_ERROR} naming it; nothing changes. Thread-safe.
 */
public final class ControllerRequestProcessor {

    /** Codes this processor answers. */
    static final int[] CODES = {RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET, RequestCode.CONTROLLER_ELECT_MASTER,
            RequestCode.CONTROLLER_REGISTER_BROKER, RequestCode.CONTROLLER_GET_REPLICA_INFO,
            RequestCode.CONTROLLER_GET_SYNC_STATE_DATA, RequestCode.CLEAN_BROKER_DATA,
            RequestCode.CONTROLLER_GET_NEXT_BROKER_ID, RequestCode.CONTROLLER_APPLY_BROKER_ID};

    private final BrokerRegistrations registrations;
    private final MasterElections elections;
    private final ReplicaQueries queries;

    public ControllerRequestProcessor(BrokerRegistrations registrations, MasterElections elections, ReplicaQueries queries) {
        this.registrations = Objects.requireNonNull(registrations, "registrations");
        this.elections = Objects.requireNonNull(elections, "elections");
        this.queries = Objects.requireNonNull(queries, "queries");
    }

    /** Registers this processor's codes on {@code server}, to run on {@code executor}. */
    public void registerOn(RemotingServer server, ExecutorService executor) {
        for (int code : CODES) {
            server.registerProcessor(code, this::process, executor);
        }
    }

    /** Answers one request of this processor's codes. */
    public CompletableFuture<RemotingCommand> process(RemotingChannel channel, RemotingCommand request) {
        CompletableFuture<ControllerReply> reply;
        try {
            reply = dispatch(request);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        return reply.handle((answer, error) -> error == null ? Replies.toCommand(request, answer)
                : Replies.failure(request, unwrap(error)));
    }

    private CompletableFuture<ControllerReply> dispatch(RemotingCommand request) {
        HeaderFields headers = request.headers();
        return switch (request.code()) {
            case RequestCode.CONTROLLER_GET_NEXT_BROKER_ID -> now(() -> registrations.nextBrokerId(
                    headers.optionalString("clusterName", null), headers.requireString("brokerName")));
            case RequestCode.CONTROLLER_APPLY_BROKER_ID -> registrations.applyBrokerId(headers.requireString("clusterName"),
                    headers.requireString("brokerName"), headers.requireLong("appliedBrokerId"),
                    headers.requireString("registerCheckCode"));
            case RequestCode.CONTROLLER_REGISTER_BROKER -> registrations.registerBroker(headers.requireString("clusterName"),
                    headers.requireString("brokerName"), headers.requireLong("brokerId"),
                    headers.requireString("brokerAddress"));
            case RequestCode.CONTROLLER_ELECT_MASTER -> elections.electMaster(headers.requireString("brokerName"),
                    headers.optionalLong("brokerId", -1), headers.optionalBoolean("designateElect", false));
            case RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET -> elections.alterSyncStateSet(
                    headers.requireString("brokerName"), headers.requireLong("masterBrokerId"),
                    headers.requireInt("masterEpoch"), body(request, SyncStateSet.class, "a SyncStateSet"));
            case RequestCode.CONTROLLER_GET_REPLICA_INFO -> now(() -> queries.replicaInfo(headers.requireString("brokerName")));
            case RequestCode.CONTROLLER_GET_SYNC_STATE_DATA -> now(() -> queries.syncStateData(brokerNames(request)));
            case RequestCode.CLEAN_BROKER_DATA -> registrations.cleanBrokerData(headers.requireString("brokerName"),
                    headers.optionalString("brokerControllerIdsToClean", null),
                    headers.optionalBoolean("isCleanLivingBroker", false));
            default -> CompletableFuture.completedFuture(ControllerReply.error(ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported"));
        };
    }

    private static CompletableFuture<ControllerReply> now(Supplier<ControllerReply> reply) {
        return CompletableFuture.completedFuture(reply.get());
    }

    private static List<String> brokerNames(RemotingCommand request) {
        try {
            List<String> names = Json.decode(request.body(), new TypeReference<List<String>>() { });
            return names == null ? List.of() : names;
        } catch (JsonBodyException e) {
            throw new org.modmq.remoting.protocol.ResponseCodeException(ResponseCode.SYSTEM_ERROR,
                    "the body must be a JSON list of broker names: " + e.getMessage());
        }
    }

    private static <T> T body(RemotingCommand request, Class<T> type, String what) {
        try {
            return Json.decode(request.body(), type);
        } catch (JsonBodyException e) {
            throw new org.modmq.remoting.protocol.ResponseCodeException(ResponseCode.SYSTEM_ERROR,
                    "the body must be " + what + ": " + e.getMessage());
        }
    }

    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** Header fields of a {@code CONTROLLER_NOT_LEADER} answer. */
    static Map<String, Object> leaderFields(LeaderGate.NotLeaderException notLeader) {
        java.util.LinkedHashMap<String, Object> fields = new java.util.LinkedHashMap<>();
        fields.put("controllerLeaderId", notLeader.leaderId());
        fields.put("controllerLeaderAddress", notLeader.leaderAddress());
        return fields;
    }
}
