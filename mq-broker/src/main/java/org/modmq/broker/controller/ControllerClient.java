package org.modmq.broker.controller;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocketMQ 5's controller protocol as a broker speaks it (header field names as RocketMQ's
 * {@code header/controller/**} classes, bodies as its fastjson JSON). Requests that only the leader
 * answers go to the leader found with CONTROLLER_GET_METADATA_INFO (1005); a NOT_LEADER answer or a
 * failed connection looks the leader up again and retries once.
 *
 * <p>Threading: thread-safe; every call is asynchronous. The remoting client belongs to the caller.
 */
final class ControllerClient {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerClient.class);

    private final RemotingClient client;
    private final List<String> controllers;
    private final Duration timeout;
    private volatile String leader;

    ControllerClient(RemotingClient client, List<String> controllers, Duration timeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.controllers = List.copyOf(controllers);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    List<String> controllers() {
        return controllers;
    }

    /** The leader's address as last learned, or null. */
    String leader() {
        return leader;
    }

    /** A controller said it leads (in a heartbeat answer). */
    void leaderIs(String address) {
        if (!address.equals(leader)) {
            LOG.info("controller leader is {}", address);
            leader = address;
        }
    }

    /** Asks every controller in turn who leads; completes with the leader's address or fails. */
    CompletableFuture<String> findLeader() {
        return findLeader(0);
    }

    private CompletableFuture<String> findLeader(int index) {
        if (index >= controllers.size()) {
            return CompletableFuture.failedFuture(new ControllerException(ResponseCode.CONTROLLER_NOT_LEADER,
                    "no controller of " + controllers + " names a leader"));
        }
        String address = controllers.get(index);
        return client.invoke(address, RemotingCommand.request(RequestCode.CONTROLLER_GET_METADATA_INFO), timeout)
                .handle((response, error) -> {
                    String named = error == null && response.code() == ResponseCode.SUCCESS
                            ? response.extField("controllerLeaderAddress") : null;
                    return named == null || named.isEmpty() ? null : named;
                })
                .thenCompose(named -> {
                    if (named == null) {
                        return findLeader(index + 1);
                    }
                    if (!named.equals(leader)) {
                        LOG.info("controller leader is {}", named);
                    }
                    leader = named;
                    return CompletableFuture.completedFuture(named);
                });
    }

    /** CONTROLLER_GET_NEXT_BROKER_ID (1012). */
    CompletableFuture<Long> nextBrokerId(String cluster, String brokerName) {
        return toLeader(() -> RemotingCommand.request(RequestCode.CONTROLLER_GET_NEXT_BROKER_ID)
                .putExtField("clusterName", cluster).putExtField("brokerName", brokerName))
                .thenApply(response -> Long.parseLong(required(response, "nextBrokerId")));
    }

    /** CONTROLLER_APPLY_BROKER_ID (1013); fails when the id is taken. */
    CompletableFuture<Void> applyBrokerId(String cluster, String brokerName, long brokerId, String checkCode) {
        return toLeader(() -> RemotingCommand.request(RequestCode.CONTROLLER_APPLY_BROKER_ID)
                .putExtField("clusterName", cluster).putExtField("brokerName", brokerName)
                .putExtField("appliedBrokerId", brokerId).putExtField("registerCheckCode", checkCode))
                .thenApply(response -> null);
    }

    /** CONTROLLER_REGISTER_BROKER (1003): the set's master and SyncStateSet. */
    CompletableFuture<ReplicaView> register(String cluster, String brokerName, long brokerId, String address) {
        return toLeader(() -> RemotingCommand.request(RequestCode.CONTROLLER_REGISTER_BROKER)
                .putExtField("clusterName", cluster).putExtField("brokerName", brokerName)
                .putExtField("brokerId", brokerId).putExtField("brokerAddress", address)
                .putExtField("invokeTime", System.currentTimeMillis()))
                .thenApply(ControllerClient::view);
    }

    /** CONTROLLER_GET_REPLICA_INFO (1004). */
    CompletableFuture<ReplicaView> replicaInfo(String brokerName) {
        return toLeader(() -> RemotingCommand.request(RequestCode.CONTROLLER_GET_REPLICA_INFO)
                .putExtField("brokerName", brokerName))
                .thenApply(ControllerClient::view);
    }

    /** CONTROLLER_ELECT_MASTER (1002) asking for {@code brokerId} (not designated). */
    CompletableFuture<ReplicaView> elect(String cluster, String brokerName, long brokerId) {
        return toLeader(() -> RemotingCommand.request(RequestCode.CONTROLLER_ELECT_MASTER)
                .putExtField("clusterName", cluster).putExtField("brokerName", brokerName)
                .putExtField("brokerId", brokerId).putExtField("designateElect", false)
                .putExtField("invokeTime", System.currentTimeMillis()))
                .thenApply(ControllerClient::view);
    }

    /** CONTROLLER_ALTER_SYNC_STATE_SET (1001): the new set as the controller stored it. */
    CompletableFuture<ReplicaView> alterSyncStateSet(String brokerName, long masterId, int masterEpoch,
                                                     Set<Long> members, int syncStateSetEpoch) {
        byte[] body = Json.encode(new SyncStateSetBody(members, syncStateSetEpoch));
        return toLeader(() -> RemotingCommand.request(RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET)
                .putExtField("brokerName", brokerName).putExtField("masterBrokerId", masterId)
                .putExtField("masterEpoch", masterEpoch).putExtField("invokeTime", System.currentTimeMillis())
                .withBody(body))
                .thenApply(response -> {
                    SyncStateSetBody set = syncStateSet(response.body());
                    return new ReplicaView(masterId, null, masterEpoch, set.syncStateSetEpoch(), set.syncStateSet());
                });
    }

    /**
     * BROKER_HEARTBEAT (904) as a two-way request to {@code address}. Completes with the answer (any code);
     * a modmq controller leader adds {@code isLeader=true} and the set's master to it.
     */
    CompletableFuture<RemotingCommand> heartbeat(String address, HeartbeatFields fields, Duration sendTimeout) {
        RemotingCommand request = RemotingCommand.request(RequestCode.BROKER_HEARTBEAT)
                .putExtField("clusterName", fields.clusterName()).putExtField("brokerAddr", fields.brokerAddr())
                .putExtField("brokerName", fields.brokerName()).putExtField("brokerId", fields.brokerId())
                .putExtField("epoch", fields.epoch()).putExtField("maxOffset", fields.maxOffset())
                .putExtField("confirmOffset", fields.confirmOffset())
                .putExtField("heartbeatTimeoutMills", fields.heartbeatTimeoutMillis())
                .putExtField("electionPriority", fields.electionPriority())
                // (modmq) a modmq controller may push role changes on this connection (see ControllerMode).
                .putExtField(NOTICE_ON_CONNECTION, true);
        return client.invoke(address, request, sendTimeout);
    }

    /**
     * Heartbeat field (modmq) saying that this broker takes NOTIFY_BROKER_ROLE_CHANGED on the connection its
     * heartbeats come on; RocketMQ's controllers ignore it.
     */
    static final String NOTICE_ON_CONNECTION = "modmqNoticeOnConnection";

    /** The fields of one heartbeat. */
    record HeartbeatFields(String clusterName, String brokerAddr, String brokerName, long brokerId, int epoch,
                           long maxOffset, long confirmOffset, long heartbeatTimeoutMillis, int electionPriority) {
    }

    private interface RequestFactory {
        RemotingCommand create();
    }

    /** Sends to the leader; on NOT_LEADER or a failed connection looks it up again and retries once. */
    private CompletableFuture<RemotingCommand> toLeader(RequestFactory request) {
        CompletableFuture<String> target = leader == null ? findLeader() : CompletableFuture.completedFuture(leader);
        return target.thenCompose(address -> send(address, request.create()))
                .handle((response, error) -> {
                    if (error == null && response.code() == ResponseCode.SUCCESS) {
                        return CompletableFuture.completedFuture(response);
                    }
                    boolean retry = error != null || response.code() == ResponseCode.CONTROLLER_NOT_LEADER;
                    if (!retry) {
                        return CompletableFuture.<RemotingCommand>failedFuture(failure(response));
                    }
                    leader = null;
                    return findLeader().thenCompose(address -> send(address, request.create()))
                            .thenApply(second -> {
                                if (second.code() != ResponseCode.SUCCESS) {
                                    throw new CompletionException(failure(second));
                                }
                                return second;
                            });
                })
                .thenCompose(future -> future);
    }

    private CompletableFuture<RemotingCommand> send(String address, RemotingCommand request) {
        return client.invoke(address, request, timeout);
    }

    private static ControllerException failure(RemotingCommand response) {
        return new ControllerException(response.code(), "controller answered " + response.code() + ": "
                + response.remark());
    }

    private static String required(RemotingCommand response, String field) {
        String value = response.extField(field);
        if (value == null || value.isEmpty()) {
            throw new ControllerException(ResponseCode.SYSTEM_ERROR, "controller answer lacks " + field);
        }
        return value;
    }

    /** The master fields of an answer's header, and the SyncStateSet of its body when there is one. */
    static ReplicaView view(RemotingCommand response) {
        String id = response.extField("masterBrokerId");
        String epoch = response.extField("masterEpoch");
        String setEpoch = response.extField("syncStateSetEpoch");
        SyncStateSetBody set = syncStateSet(response.body());
        int syncEpoch = setEpoch != null && !setEpoch.isEmpty() ? Integer.parseInt(setEpoch) : set.syncStateSetEpoch();
        return new ReplicaView(id == null || id.isEmpty() ? null : Long.valueOf(id), response.extField("masterAddress"),
                epoch == null || epoch.isEmpty() ? 0 : Integer.parseInt(epoch), syncEpoch, set.syncStateSet());
    }

    /** A SyncStateSet body ({@code SyncStateSet}, or {@code ElectMasterResponseBody}'s member), lenient about absence. */
    static SyncStateSetBody syncStateSet(byte[] body) {
        if (body == null || body.length == 0) {
            return new SyncStateSetBody(Set.of(), -1);
        }
        JsonNode root = Json.tree(body);
        Set<Long> members = new HashSet<>();
        JsonNode list = root.path("syncStateSet");
        list.forEach(member -> members.add(member.asLong()));
        int epoch = root.path("syncStateSetEpoch").asInt(-1);
        return new SyncStateSetBody(members, epoch);
    }

    /** RocketMQ's {@code SyncStateSet} body. */
    record SyncStateSetBody(Set<Long> syncStateSet, int syncStateSetEpoch) {
    }
}
