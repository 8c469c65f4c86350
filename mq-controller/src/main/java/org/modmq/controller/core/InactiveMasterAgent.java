package org.modmq.controller.core;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.modmq.controller.elect.ElectPolicy;
import org.modmq.controller.liveness.BrokerKey;
import org.modmq.controller.liveness.LeaseRule;
import org.modmq.controller.liveness.LiveBroker;
import org.modmq.controller.state.BrokerSetState;
import org.modmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's watch over masters: each {@link #doWork()} looks at every broker set and starts an
 * election where the master is inactive and its lease has certainly ended ({@link LeaseRule}), or where
 * a set whose master was cleared has a live replica the policy would pick again. A channel close makes
 * the server call {@code doWork()} at once; otherwise it runs every {@code scanNotActiveBrokerInterval}.
 *
 * <p>Elections run through {@link MasterElections} (one write at a time); at most one per broker set is
 * in flight, and one that is fenced by a concurrent change is tried again up to
 * {@code electMasterMaxRetryCount} times.
 *
 * <p>Threading: {@code doWork()} is called by one thread at a time (the controller's scheduler);
 * elections complete on other threads.
 */
public final class InactiveMasterAgent {

    private static final Logger LOG = LoggerFactory.getLogger(InactiveMasterAgent.class);

    /** States of the agent: it acts only while its peer may write. */
    public enum State { IDLE, WATCHING }

    private final ControllerContext context;
    private final MasterElections elections;
    private final ElectPolicy policy;
    private final LeaseRule leaseRule;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> deferredUntil = new ConcurrentHashMap<>();
    private State state = State.IDLE;

    /**
     * @param context   the shared parts
     * @param elections runs the elections
     * @param policy    says whether a cleared set has a candidate again
     * @param leaseRule says when a master's lease has ended
     */
    public InactiveMasterAgent(ControllerContext context, MasterElections elections, ElectPolicy policy, LeaseRule leaseRule) {
        this.context = Objects.requireNonNull(context, "context");
        this.elections = Objects.requireNonNull(elections, "elections");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.leaseRule = Objects.requireNonNull(leaseRule, "leaseRule");
    }

    /** @return the number of elections started */
    public int doWork() {
        Leadership leadership = context.log().leadership();
        transition(leadership.mayWrite() ? State.WATCHING : State.IDLE, leadership);
        if (state != State.WATCHING) {
            return 0;
        }
        long now = context.liveness().now();
        int started = 0;
        for (BrokerSetState set : context.log().state().brokerSets().values()) {
            if (!inFlight.contains(set.brokerName()) && needsElection(set, leadership, now)) {
                start(set.brokerName(), context.settings().electMasterMaxRetryCount());
                started++;
            }
        }
        return started;
    }

    /** @return the agent's state after the last {@link #doWork()} */
    public State state() {
        return state;
    }

    /** @return whether an election for {@code brokerName} is running */
    public boolean electing(String brokerName) {
        return inFlight.contains(brokerName);
    }

    private boolean needsElection(BrokerSetState set, Leadership leadership, long now) {
        Long master = set.masterBrokerId();
        if (master != null) {
            BrokerKey key = new BrokerKey(set.clusterName(), set.brokerName(), master);
            if (context.liveness().isActive(key)) {
                deferredUntil.remove(set.brokerName());
                return false;
            }
            LiveBroker last = context.liveness().get(key).orElse(null);
            OptionalLong declared = context.liveness().declaredTimeout(key);
            if (leaseRule.leaseEnded(last, declared, leadership.leaderSinceMillis(), now)) {
                return true;
            }
            long end = leaseRule.endOfLease(last, declared, leadership.leaderSinceMillis());
            if (deferredUntil.put(set.brokerName(), end) == null) {
                LOG.info("master {} of broker set {} is inactive; its lease may last {} ms more, election deferred",
                        master, set.brokerName(), end - now);
            }
            return false;
        }
        if (!set.hadElection()) {
            return false;
        }
        Optional<Long> candidate = policy.elect(set, id -> context.alive(set, id), id -> context.live(set, id), null,
                context.settings().enableElectUncleanMaster());
        return candidate.isPresent();
    }

    private void start(String brokerName, int attemptsLeft) {
        inFlight.add(brokerName);
        deferredUntil.remove(brokerName);
        CompletableFuture<ControllerReply> election;
        try {
            election = elections.electMaster(brokerName, null, false);
        } catch (RuntimeException e) {
            election = CompletableFuture.failedFuture(e);
        }
        election.whenComplete((reply, error) -> {
            boolean fenced = reply != null && (reply.code() == ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH
                    || reply.code() == ResponseCode.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH);
            if (fenced && attemptsLeft > 1) {
                start(brokerName, attemptsLeft - 1);
                return;
            }
            inFlight.remove(brokerName);
            if (error != null) {
                LOG.warn("controller-triggered election of broker set {} failed: {}", brokerName, error.toString());
            } else if (reply.code() != ResponseCode.SUCCESS) {
                LOG.info("controller-triggered election of broker set {}: {} {}", brokerName,
                        ResponseCode.name(reply.code()), reply.remark());
            }
        });
    }

    private void transition(State next, Leadership leadership) {
        if (next != state) {
            LOG.info("inactive-master agent {} -> {} (leader={}, serving={}, quorum={})", state, next,
                    leadership.leader(), leadership.serving(), leadership.quorum());
            state = next;
            deferredUntil.clear();
        }
    }
}
