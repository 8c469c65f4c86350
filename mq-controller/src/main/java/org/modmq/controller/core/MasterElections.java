package org.modmq.controller.core;

import static org.modmq.controller.core.BrokerRegistrations.done;
import static org.modmq.controller.core.BrokerRegistrations.header;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.modmq.controller.body.BrokerMemberGroup;
import org.modmq.controller.body.ElectMasterResponseBody;
import org.modmq.controller.body.SyncStateSet;
import org.modmq.controller.elect.ElectPolicy;
import org.modmq.controller.liveness.LeaseRule;
import org.modmq.controller.state.BrokerSetState;
import org.modmq.controller.state.ControllerEvent;
import org.modmq.controller.state.Replica;
import org.modmq.controller.state.SyncStateSetCheck;
import org.modmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Master elections ({@code CONTROLLER_ELECT_MASTER}, 1002, from a broker, an operator or the leader
 * itself) and sync-state set changes ({@code CONTROLLER_ALTER_SYNC_STATE_SET}, 1001). Every election
 * that elects a new master is reported to the role-change listener. An election that would replace an
 * inactive master whose lease may still hold ({@link LeaseRule}) is refused unless an operator designated
 * the new master. Leader-only. Thread-safe.
 */
public final class MasterElections {

    private static final Logger LOG = LoggerFactory.getLogger(MasterElections.class);

    private final ControllerContext context;
    private final ElectPolicy policy;
    private final Consumer<RoleChange> roleChanges;
    private final LeaseRule leaseRule;
    private volatile ElectionObserver observer = ElectionObserver.NONE;

    /**
     * @param context     the shared parts
     * @param policy      picks the master
     * @param leaseRule   when an inactive master's lease has ended
     * @param roleChanges told about every new master, on the thread that applied it; must not block
     */
    public MasterElections(ControllerContext context, ElectPolicy policy, LeaseRule leaseRule,
                           Consumer<RoleChange> roleChanges) {
        this.context = Objects.requireNonNull(context, "context");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.leaseRule = Objects.requireNonNull(leaseRule, "leaseRule");
        this.roleChanges = Objects.requireNonNull(roleChanges, "roleChanges");
    }

    /**
     * 1002. The first broker that asks in a set that never had a master becomes master; later, the
     * policy picks among the live sync-state set (honouring {@code designateElect}).
     *
     * @param brokerName     the broker set
     * @param brokerId       the requesting or designated broker; null (or -1) when the controller triggers
     * @param designateElect whether {@code brokerId} is the broker an operator wants as master
     */
    public CompletableFuture<ControllerReply> electMaster(String brokerName, Long brokerId, boolean designateElect) {
        return elect(brokerName, brokerId, designateElect).whenComplete((reply, error) -> {
            if (reply != null) {
                String cluster = context.log().state().brokerSet(brokerName).map(BrokerSetState::clusterName)
                        .orElse("");
                observer.elected(cluster, brokerName, reply.code());
            }
        });
    }

    /** Sets who is told of every election's outcome, replacing the previous one. */
    public void observe(ElectionObserver observer) {
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    private CompletableFuture<ControllerReply> elect(String brokerName, Long brokerId, boolean designateElect) {
        Long requester = brokerId == null || brokerId < 0 ? null : brokerId;
        return context.write(state -> {
            BrokerSetState set = state.brokerSet(brokerName).orElse(null);
            if (set == null) {
                return done(ControllerReply.error(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED,
                        "Broker hasn't been registered"));
            }
            Optional<Long> chosen = !set.hadElection() && requester != null
                    ? Optional.of(requester)
                    : policy.elect(set, id -> context.alive(set, id), id -> context.live(set, id),
                    designateElect ? requester : null, context.settings().enableElectUncleanMaster());
            if (chosen.isPresent() && chosen.get().equals(set.masterBrokerId())) {
                return done(new ControllerReply(ResponseCode.CONTROLLER_MASTER_STILL_EXIST, "The old master "
                        + set.masterBrokerId() + " is still alive, not need to elect new master for broker " + brokerName,
                        masterHeader(set), new ElectMasterResponseBody(null, set.syncStateSet())));
            }
            if (!designateElect && leaseMayHold(set)) {
                return done(ControllerReply.error(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED, "the lease of master "
                        + set.masterBrokerId() + " of " + brokerName + " may still hold: this controller has led for"
                        + " less than one heartbeat timeout plus the Raft election timeout max; retry shortly"));
            }
            if (chosen.isEmpty() && requester != null) {
                LOG.warn("no master elected for broker set {}: no live candidate (asked by {})", brokerName, requester);
                return done(ControllerReply.error(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED, "Failed to elect a new master"));
            }
            if (chosen.isEmpty() && set.masterBrokerId() == null) {
                return done(ControllerReply.error(ResponseCode.CONTROLLER_MASTER_NOT_AVAILABLE,
                        "Broker set " + brokerName + " has no master and no live replica can take over"));
            }
            ControllerEvent.ElectMaster event = new ControllerEvent.ElectMaster(brokerName, chosen.orElse(null),
                    set.masterEpoch(), set.syncStateSetEpoch());
            return context.log().submit(event).thenApply(result -> {
                if (!result.applied()) {
                    return ControllerReply.error(result.code(), result.remark());
                }
                BrokerSetState after = context.log().state().brokerSet(brokerName).orElse(set);
                if (chosen.isEmpty()) {
                    LOG.warn("master {} of broker set {} is gone and no replica can take over; master cleared (epoch {})",
                            set.masterBrokerId(), brokerName, after.masterEpoch());
                    return ControllerReply.error(ResponseCode.CONTROLLER_MASTER_NOT_AVAILABLE,
                            "Old master has down and failed to elect a new broker master");
                }
                LOG.info("broker set {}: broker {} elected master at epoch {} (was {})", brokerName, chosen.get(),
                        after.masterEpoch(), set.masterBrokerId());
                publish(after);
                return ControllerReply.success(masterHeader(after),
                        new ElectMasterResponseBody(memberGroup(after), after.syncStateSet()));
            });
        });
    }

    /** 1001: the master changes its sync-state set, fenced by its master and sync-state set epochs. */
    public CompletableFuture<ControllerReply> alterSyncStateSet(String brokerName, long masterBrokerId, int masterEpoch,
                                                               SyncStateSet requested) {
        SortedSet<Long> newSet = requested.syncStateSet();
        return context.write(state -> {
            BrokerSetState set = state.brokerSet(brokerName).orElse(null);
            Optional<ControllerReply> refused = SyncStateSetCheck.refusal(set, masterBrokerId, masterEpoch,
                    requested.syncStateSetEpoch(), newSet).map(r -> ControllerReply.error(r.code(), r.remark()));
            if (refused.isPresent()) {
                return done(refused.get());
            }
            for (Long id : newSet) {
                if (!context.alive(set, id)) {
                    return done(ControllerReply.error(ResponseCode.CONTROLLER_BROKER_NOT_ALIVE,
                            "Rejecting alter syncStateSet request because the replicas {" + id + "} don't alive"));
                }
            }
            return context.log().submit(new ControllerEvent.AlterSyncStateSet(brokerName, masterBrokerId, masterEpoch,
                    requested.syncStateSetEpoch(), newSet)).thenApply(result -> {
                        if (!result.applied()) {
                            return ControllerReply.error(result.code(), result.remark());
                        }
                        BrokerSetState after = context.log().state().brokerSet(brokerName).orElseThrow();
                        return ControllerReply.success(header("newSyncStateSetEpoch", after.syncStateSetEpoch()),
                                SyncStateSet.of(after.syncStateSet(), after.syncStateSetEpoch()));
                    });
        });
    }

    /** Whether the set's master is inactive but may still hold a lease (the lease rule). */
    private boolean leaseMayHold(BrokerSetState set) {
        Long master = set.masterBrokerId();
        if (master == null || context.alive(set, master)) {
            return false;
        }
        Leadership leadership = context.log().leadership();
        return !leaseRule.leaseEnded(context.live(set, master).orElse(null), context.declaredTimeout(set, master),
                leadership.leaderSinceMillis(),
                context.liveness().now());
    }

    private void publish(BrokerSetState set) {
        java.util.SortedMap<Long, String> addresses = new java.util.TreeMap<>();
        set.replicas().forEach((id, replica) -> addresses.put(id, replica.address()));
        try {
            roleChanges.accept(new RoleChange(set.clusterName(), set.brokerName(), set.masterBrokerId(),
                    set.masterAddress(), set.masterEpoch(), set.syncStateSetEpoch(), set.syncStateSet(), addresses));
        } catch (RuntimeException e) {
            LOG.warn("role change listener failed for broker set {}", set.brokerName(), e);
        }
    }

    private static Map<String, Object> masterHeader(BrokerSetState set) {
        return header("masterBrokerId", set.masterBrokerId(), "masterAddress", set.masterAddress(),
                "masterEpoch", set.masterEpoch(), "syncStateSetEpoch", set.syncStateSetEpoch());
    }

    static BrokerMemberGroup memberGroup(BrokerSetState set) {
        java.util.SortedMap<Long, String> addresses = new java.util.TreeMap<>();
        for (Replica replica : set.replicas().values()) {
            addresses.put(replica.brokerId(), replica.address());
        }
        return new BrokerMemberGroup(set.clusterName(), set.brokerName(), addresses);
    }
}
