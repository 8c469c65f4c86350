package org.modmq.controller.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.modmq.controller.body.SyncStateSet;
import org.modmq.controller.state.BrokerSetState;
import org.modmq.controller.state.ControllerEvent;
import org.modmq.controller.state.ControllerState;
import org.modmq.controller.state.Replica;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * How brokers join a broker set: {@code CONTROLLER_GET_NEXT_BROKER_ID} (1012),
 * {@code CONTROLLER_APPLY_BROKER_ID} (1013), {@code CONTROLLER_REGISTER_BROKER} (1003), and how an
 * operator removes them: {@code CLEAN_BROKER_DATA} (1011). Codes and remarks as RocketMQ's
 * {@code ReplicasInfoManager}. Leader-only. Thread-safe.
 */
public final class BrokerRegistrations {

    private final ControllerContext context;

    public BrokerRegistrations(ControllerContext context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    /** 1012: the id the next broker of the set should apply for. */
    public ControllerReply nextBrokerId(String clusterName, String brokerName) {
        ControllerState state = context.leaderState();
        long next = state.brokerSet(brokerName).map(BrokerSetState::nextBrokerId).orElse(BrokerSetState.FIRST_BROKER_ID);
        return ControllerReply.success(header("clusterName", clusterName, "brokerName", brokerName, "nextBrokerId", next), null);
    }

    /** 1013: take {@code brokerId}; {@code registerCheckCode} is {@code address;timestamp}. */
    public CompletableFuture<ControllerReply> applyBrokerId(String clusterName, String brokerName, long brokerId,
                                                           String registerCheckCode) {
        String address = registerCheckCode.split(";", 2)[0];
        Map<String, Object> header = header("clusterName", clusterName, "brokerName", brokerName);
        return context.write(state -> {
            Optional<BrokerSetState> set = state.brokerSet(brokerName);
            if (set.isEmpty() && brokerId != BrokerSetState.FIRST_BROKER_ID) {
                return done(new ControllerReply(ResponseCode.CONTROLLER_BROKER_ID_INVALID, "Broker-set: " + brokerName
                        + " hasn't been registered in controller, but broker try to apply brokerId: " + brokerId, header, null));
            }
            Replica holder = set.map(s -> s.replicas().get(brokerId)).orElse(null);
            if (holder != null && !holder.registerCheckCode().equals(registerCheckCode)) {
                return done(new ControllerReply(ResponseCode.CONTROLLER_BROKER_ID_INVALID,
                        "Fail to apply brokerId: " + brokerId + " in broker-set: " + brokerName, header, null));
            }
            return context.log().submit(new ControllerEvent.ApplyBrokerId(clusterName, brokerName, brokerId, address,
                    registerCheckCode)).thenApply(result -> new ControllerReply(result.code(), result.remark(), header, null));
        });
    }

    /**
     * 1003: a broker with an id says it is up. The answer names the master when there is a live one, and
     * carries the sync-state set; a changed address is written.
     */
    public CompletableFuture<ControllerReply> registerBroker(String clusterName, String brokerName, long brokerId,
                                                            String brokerAddress) {
        return context.write(state -> {
            BrokerSetState set = state.brokerSet(brokerName).orElse(null);
            if (set == null) {
                return done(ControllerReply.error(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED,
                        "Broker-set: " + brokerName + " hasn't been registered in controller"));
            }
            if (!set.hasReplica(brokerId)) {
                return done(ControllerReply.error(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED,
                        "BrokerId: " + brokerId + " hasn't been registered in broker-set: " + brokerName));
            }
            if (brokerAddress.equals(set.addressOf(brokerId))) {
                return done(registered(clusterName, set));
            }
            return context.log().submit(new ControllerEvent.UpdateBrokerAddress(brokerName, brokerId, brokerAddress))
                    .thenApply(result -> registered(clusterName,
                            context.log().state().brokerSet(brokerName).orElse(set)));
        });
    }

    private ControllerReply registered(String clusterName, BrokerSetState set) {
        Map<String, Object> header = header("clusterName", clusterName, "brokerName", set.brokerName());
        if (set.masterBrokerId() != null && context.alive(set, set.masterBrokerId())) {
            header.put("masterBrokerId", set.masterBrokerId());
            header.put("masterAddress", set.masterAddress());
            header.put("masterEpoch", set.masterEpoch());
            header.put("syncStateSetEpoch", set.syncStateSetEpoch());
        }
        return ControllerReply.success(header, SyncStateSet.of(set.syncStateSet(), set.syncStateSetEpoch()));
    }

    /**
     * 1011: forget a broker set, or the replicas in {@code idsToClean} ({@code 1;2;3}); unless
     * {@code cleanLivingBroker}, refused while the set has a master or a named replica is alive.
     */
    public CompletableFuture<ControllerReply> cleanBrokerData(String brokerName, String idsToClean, boolean cleanLivingBroker) {
        return context.write(state -> {
            Set<Long> ids = new TreeSet<>();
            if (idsToClean != null && !idsToClean.isBlank()) {
                try {
                    for (String id : idsToClean.split(";")) {
                        ids.add(Long.valueOf(id.trim()));
                    }
                } catch (NumberFormatException e) {
                    return done(ControllerReply.error(ResponseCode.CONTROLLER_INVALID_CLEAN_BROKER_METADATA,
                            "Please set the option <brokerControllerIdsToClean> according to the format, exception: " + e));
                }
            }
            BrokerSetState set = state.brokerSet(brokerName).orElse(null);
            if (set != null && !cleanLivingBroker) {
                if (ids.isEmpty() && set.masterBrokerId() != null) {
                    return done(ControllerReply.error(ResponseCode.CONTROLLER_INVALID_CLEAN_BROKER_METADATA,
                            "Broker " + brokerName + " is still alive, clean up failure"));
                }
                for (Long id : ids) {
                    if (context.alive(set, id)) {
                        return done(ControllerReply.error(ResponseCode.CONTROLLER_INVALID_CLEAN_BROKER_METADATA,
                                "Broker [" + brokerName + ",  " + id + "] is still alive, clean up failure"));
                    }
                }
            }
            return context.log().submit(ControllerEvent.CleanBrokerData.of(brokerName, ids))
                    .thenApply(result -> new ControllerReply(result.code(), result.remark(), Map.of(), null));
        });
    }

    static CompletableFuture<ControllerReply> done(ControllerReply reply) {
        return CompletableFuture.completedFuture(reply);
    }

    static Map<String, Object> header(Object... keysAndValues) {
        Map<String, Object> header = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            header.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return header;
    }
}
