package org.modmq.broker.controller;

import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.replication.RoleState;
import org.modmq.broker.config.ControllerModeConfig;
import org.modmq.broker.controller.ControllerClient.HeartbeatFields;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.store.MessageStore;
import org.modmq.store.StaleEpochException;
import org.modmq.store.SyncStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker in controller mode: registers with the controllers (id allocation, REGISTER_BROKER), sends
 * heartbeats that keep the master's {@link WriteLease}, follows every role change the controllers name
 * (REGISTER/GET_REPLICA_INFO/ELECT answers, the leader's heartbeat answers; a NOTIFY_BROKER_ROLE_CHANGED
 * push only makes it ask the leader at once) by switching the store's role, and as master keeps the SyncStateSet current (shrinks a member
 * that disconnected or has not caught up within {@code haMaxTimeSlaveNotCatchup}, adds one that caught up)
 * with ALTER_SYNC_STATE_SET. A set without a master gets an ELECT_MASTER request.
 *
 * <p>Threading: all state lives on the agent's own thread; answers from the network are handed to it.
 * Public methods are thread-safe. {@link #close()} is idempotent.
 */
public final class ControllerRoleAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerRoleAgent.class);
    private static final long RETRY_MILLIS = 1_000;

    /** Agent states; every change goes through {@link #transition}. */
    enum State {
        /** Getting an id and registering with the controller leader. */
        REGISTERING,
        /** Registered: heartbeats, polls and role changes. */
        RUNNING,
        /** Closed. */
        STOPPED
    }

    private final ControllerModeConfig config;
    private final String cluster;
    private final String brokerName;
    private final String brokerAddress;
    private final MessageStore store;
    private final WriteLease lease;
    private final RoleHooks hooks;
    private final ControllerClient controllers;
    private final ControllerRegistration registration;
    private final ControllerHeartbeats heartbeats;
    private final MasterHaAddressResolver haResolver;
    private final ScheduledExecutorService thread;
    private volatile State state = State.REGISTERING;
    private volatile long brokerId = -1;
    private volatile int masterEpoch;
    private int syncStateSetEpoch;
    private String masterAddress;
    private boolean alterInFlight;
    private boolean alterAgain;
    private final NoticeConfirmation confirmation;
    private ScheduledFuture<?> heartbeatTask;

    /**
     * @param client the remoting client for the controllers and the master (owned by the caller)
     * @param lease the lease sends are gated on (shared with the broker's {@code AckGate})
     * @param hooks name-server registration and metadata sync
     */
    public ControllerRoleAgent(ControllerModeConfig config, String cluster, String brokerName, String brokerAddress,
                               MessageStore store, RemotingClient client, WriteLease lease, RoleHooks hooks,
                               Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.brokerName = Objects.requireNonNull(brokerName, "brokerName");
        this.brokerAddress = Objects.requireNonNull(brokerAddress, "brokerAddress");
        this.store = Objects.requireNonNull(store, "store");
        this.lease = Objects.requireNonNull(lease, "lease");
        this.hooks = Objects.requireNonNull(hooks, "hooks");
        Duration timeout = Duration.ofMillis(Math.max(config.sendHeartbeatTimeoutMillis(), 3_000));
        this.controllers = new ControllerClient(client, config.controllerAddresses(), timeout);
        this.registration = new ControllerRegistration(controllers, new BrokerIdentityFiles(config.identityFile()),
                cluster, brokerName, brokerAddress, clock);
        this.heartbeats = new ControllerHeartbeats(controllers, lease, this::heartbeatFields, () -> masterEpoch,
                Duration.ofMillis(config.sendHeartbeatTimeoutMillis()), view -> onThread(() -> apply(view, "heartbeat")));
        this.haResolver = new MasterHaAddressResolver(client, timeout);
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "ControllerRoleAgent-" + brokerName);
            t.setDaemon(true);
            return t;
        });
        this.confirmation = new NoticeConfirmation(controllers, brokerName, thread,
                this::acting, this::apply);
        client.addChannelCloseListener(channel -> heartbeats.connectionClosed(hostPort(channel.remoteAddress())));
        store.addSyncStateListener(new SyncStateListener() {
            @Override
            public void replicaLost(long id) {
                onThread(ControllerRoleAgent.this::checkSyncStateSet);
            }

            @Override
            public void replicaCaughtUp(long id) {
                onThread(ControllerRoleAgent.this::checkSyncStateSet);
            }
        });
    }

    private static String hostPort(java.net.InetSocketAddress address) {
        return address == null ? "" : address.getHostString() + ":" + address.getPort();
    }

    /** Starts registering; the rest follows on the agent's thread. */
    public void start() {
        Optional.ofNullable(registrationIdOrNull()).ifPresent(id -> brokerId = id);
        onThread(this::register);
    }

    private Long registrationIdOrNull() {
        return registration.assignedId().orElse(null);
    }

    /** This broker's controller-assigned id, -1 before it has one. */
    public long brokerId() {
        return brokerId;
    }

    /** The master epoch this broker last acted on. */
    public int masterEpoch() {
        return masterEpoch;
    }

    State state() {
        return state;
    }

    /**
     * NOTIFY_BROKER_ROLE_CHANGED (1008) on the broker's own port: a hint only, confirmed with the controller
     * leader before anything changes ({@link NoticeConfirmation}).
     */
    public void roleChangeNotified(ReplicaView notice, String from) {
        Objects.requireNonNull(notice, "notice");
        onThread(() -> confirmation.confirm(notice, from));
    }

    /**
     * NOTIFY_BROKER_ROLE_CHANGED that came on a connection this broker opened to one of its controllers:
     * as trustworthy as a heartbeat answer on it, so it is applied at once (epochs fence it as any answer),
     * without the confirmation a notice to the broker's own port needs.
     */
    public void roleChangeNotifiedByController(ReplicaView notice, String from) {
        Objects.requireNonNull(notice, "notice");
        onThread(() -> apply(notice, "notification on the connection to controller " + from));
    }

    private void register() {
        if (state == State.STOPPED) {
            return;
        }
        registration.brokerId().thenCompose(id -> {
            brokerId = id;
            return registration.register(id);
        }).whenCompleteAsync((view, error) -> {
            if (state == State.STOPPED) {
                return;
            }
            if (error != null) {
                // Brokers of one set starting together compete for the same next id: retry soon, spread out.
                long delay = 100 + java.util.concurrent.ThreadLocalRandom.current().nextLong(RETRY_MILLIS - 100);
                LOG.warn("registering with the controllers {} failed; retrying in {} ms: {}",
                        config.controllerAddresses(), delay, rootMessage(error));
                thread.schedule(this::register, delay, TimeUnit.MILLISECONDS);
                return;
            }
            if (state == State.REGISTERING) {
                transition(State.RUNNING, "registered as broker id " + brokerId);
                startTimers();
            }
            apply(view, "registration");
        }, thread);
    }

    private void startTimers() {
        heartbeats.beat();
        heartbeatTask = thread.scheduleAtFixedRate(heartbeats::beat, config.heartbeatIntervalMillis(),
                config.heartbeatIntervalMillis(), TimeUnit.MILLISECONDS);
        thread.scheduleWithFixedDelay(this::poll, config.syncBrokerMetadataPeriodMillis(),
                config.syncBrokerMetadataPeriodMillis(), TimeUnit.MILLISECONDS);
        thread.scheduleWithFixedDelay(this::checkSyncStateSet, config.checkSyncStateSetPeriodMillis(),
                config.checkSyncStateSetPeriodMillis(), TimeUnit.MILLISECONDS);
        thread.scheduleWithFixedDelay(() -> controllers.findLeader().exceptionally(e -> null),
                config.syncControllerMetadataPeriodMillis(), config.syncControllerMetadataPeriodMillis(),
                TimeUnit.MILLISECONDS);
    }

    private HeartbeatFields heartbeatFields() {
        int epoch = store.epochs().isEmpty() ? 0 : store.epochs().get(store.epochs().size() - 1).epoch();
        return new HeartbeatFields(cluster, brokerAddress, brokerName, brokerId, epoch, store.getCommitLogMaxOffset(),
                store.getConfirmOffset(), config.heartbeatTimeoutMillis(), config.electionPriority());
    }

    /** GET_REPLICA_INFO: catches role changes a lost notification missed. */
    private void poll() {
        if (state != State.RUNNING) {
            return;
        }
        controllers.replicaInfo(brokerName).whenCompleteAsync((view, error) -> {
            if (error == null) {
                apply(view, "replica info");
            } else if (cause(error) instanceof ControllerException c
                    && c.code() == ResponseCode.CONTROLLER_BROKER_METADATA_NOT_EXIST) {
                LOG.warn("the controller does not know broker set {}; registering again", brokerName);
                register();
            } else {
                LOG.debug("replica info of {} not available: {}", brokerName, rootMessage(error));
            }
        }, thread);
    }

    /** Applies what a controller said; agent thread only. */
    /** Whether the agent acts on what a controller says: running, with an id. */
    private boolean acting() {
        return state != State.STOPPED && brokerId >= 0;
    }

    private void apply(ReplicaView view, String source) {
        if (!acting()) {
            return;
        }
        if (!view.hasMaster()) {
            if (view.masterEpoch() >= masterEpoch) {
                requestElection();
            }
            return;
        }
        if (view.masterEpoch() > masterEpoch || masterEpoch == 0 && !rolesMatch(view)) {
            if (view.masterBrokerId() == brokerId) {
                changeToMaster(view, source);
            } else {
                changeToReplica(view, source);
            }
        } else if (view.masterEpoch() == masterEpoch && store.role().master()
                && view.syncStateSetEpoch() > syncStateSetEpoch && !view.syncStateSet().isEmpty()) {
            syncStateSetEpoch = view.syncStateSetEpoch();
            store.applySyncStateSet(view.syncStateSet());
        } else if (view.masterEpoch() == masterEpoch && !store.role().master() && view.masterBrokerId() != brokerId
                && !view.masterAddress().equals(masterAddress)) {
            moveToMasterAddress(view, source);
        }
    }

    /**
     * Same master, same epoch, another address: the master restarted on another port or host and
     * registered it. The address this replica learned earlier (perhaps before that registration) is dead.
     */
    private void moveToMasterAddress(ReplicaView view, String source) {
        LOG.info("broker {} id {}: master {} of epoch {} moved from {} to {} (from the {})", brokerName, brokerId,
                view.masterBrokerId(), masterEpoch, masterAddress, view.masterAddress(), source);
        masterAddress = view.masterAddress();
        hooks.becameReplica(masterEpoch, brokerId, masterAddress);
        follow(masterEpoch, masterAddress);
    }

    private boolean rolesMatch(ReplicaView view) {
        RoleState role = store.role();
        return role.master() == (view.masterBrokerId() == brokerId) && role.epoch() == view.masterEpoch();
    }

    private void changeToMaster(ReplicaView view, String source) {
        long began = System.nanoTime();
        long[] registered = new long[1]; // when the hook ran, for the log line
        try {
            // Registered as soon as the store takes writes; its replication strategy and role listeners
            // (delay and transaction agents) are told after that.
            store.becomeMaster(view.masterEpoch(), brokerId, () -> {
                tookOver(view);
                registered[0] = System.nanoTime();
            });
        } catch (StaleEpochException e) {
            LOG.warn("ignoring master epoch {} from the {}: {}", view.masterEpoch(), source, e.getMessage());
            return;
        }
        LOG.info("broker {} id {} is master of epoch {} (from the {}), SyncStateSet {} epoch {}; registration sent {} ms"
                + " after the notice, store done {} ms after", brokerName, brokerId, masterEpoch, source,
                store.syncStateSet(), syncStateSetEpoch, (registered[0] - began) / 1_000_000,
                (System.nanoTime() - registered[0]) / 1_000_000);
    }

    /** The new master's own state, its SyncStateSet, the registration as id 0 and a heartbeat (renews the lease). */
    private void tookOver(ReplicaView view) {
        masterEpoch = view.masterEpoch();
        masterAddress = brokerAddress;
        syncStateSetEpoch = view.syncStateSetEpoch();
        Set<Long> members = new HashSet<>(view.syncStateSet());
        members.add(brokerId);
        store.applySyncStateSet(members);
        hooks.becameMaster(masterEpoch);
        heartbeats.beat();
    }

    private void changeToReplica(ReplicaView view, String source) {
        int epoch = view.masterEpoch();
        try {
            store.becomeReplica(epoch, null, brokerId);
        } catch (StaleEpochException e) {
            LOG.warn("ignoring master epoch {} from the {}: {}", epoch, source, e.getMessage());
            return;
        }
        lease.revoke("broker " + view.masterBrokerId() + " is master of epoch " + epoch);
        masterEpoch = epoch;
        masterAddress = view.masterAddress();
        LOG.info("broker {} id {} follows master {} (id {}) in epoch {} (from the {})", brokerName, brokerId,
                masterAddress, view.masterBrokerId(), epoch, source);
        hooks.becameReplica(epoch, brokerId, masterAddress);
        follow(epoch, masterAddress);
    }

    private void follow(int epoch, String master) {
        haResolver.resolve(master).whenCompleteAsync((ha, error) -> {
            if (state == State.STOPPED || masterEpoch != epoch || !master.equals(masterAddress)) {
                return;
            }
            if (error != null) {
                LOG.warn("cannot learn the HA address of master {}; retrying in {} ms: {}", master, RETRY_MILLIS,
                        rootMessage(error));
                thread.schedule(() -> follow(epoch, master), RETRY_MILLIS, TimeUnit.MILLISECONDS);
                return;
            }
            followHa(epoch, master, ha);
        }, thread);
    }

    /** The name servers named the master's HA address; used when it belongs to the master this broker follows. */
    public void masterNamed(String master, String haAddress) {
        if (haAddress != null) {
            onThread(() -> followHa(masterEpoch, master, haAddress));
        }
    }

    private void followHa(int epoch, String master, String ha) {
        RoleState role = store.role();
        if (state == State.STOPPED || role.master() || masterEpoch != epoch || !master.equals(masterAddress)
                || ha.equals(role.masterHaAddress())) {
            return;
        }
        try {
            store.becomeReplica(epoch, ha, brokerId);
        } catch (StaleEpochException e) {
            LOG.warn("not following {}: {}", ha, e.getMessage());
        }
    }

    private void requestElection() {
        if (state != State.RUNNING) {
            return;
        }
        controllers.elect(cluster, brokerName, brokerId).whenCompleteAsync((view, error) -> {
            if (error == null) {
                apply(view, "election");
            } else if (cause(error) instanceof ControllerException c
                    && c.code() == ResponseCode.CONTROLLER_MASTER_STILL_EXIST) {
                poll();
            } else {
                LOG.info("election for {} not done: {}", brokerName, rootMessage(error));
            }
        }, thread);
    }

    /** Master: proposes the SyncStateSet without lagging members and with caught-up replicas. */
    private void checkSyncStateSet() {
        if (state != State.RUNNING || !store.role().master()) {
            return;
        }
        if (alterInFlight) {
            alterAgain = true;
            return;
        }
        Set<Long> current = store.syncStateSet();
        Set<Long> next = new HashSet<>(current);
        next.removeAll(store.laggingReplicas());
        next.addAll(store.joinableReplicas());
        next.add(brokerId);
        if (next.equals(current)) {
            return;
        }
        alterInFlight = true;
        int epoch = masterEpoch;
        store.proposeSyncStateSet(next);
        LOG.info("proposing SyncStateSet {} (was {}) for {} epoch {}", next, current, brokerName, epoch);
        controllers.alterSyncStateSet(brokerName, brokerId, epoch, next, syncStateSetEpoch)
                .whenCompleteAsync((view, error) -> {
                    alterInFlight = false;
                    if (error == null && masterEpoch == epoch && store.role().master()) {
                        syncStateSetEpoch = view.syncStateSetEpoch();
                        store.applySyncStateSet(view.syncStateSet());
                    } else {
                        store.applySyncStateSet(store.syncStateSet());
                        if (error != null) {
                            LOG.warn("SyncStateSet change to {} refused: {}", next, rootMessage(error));
                            poll();
                        }
                    }
                    if (alterAgain) {
                        alterAgain = false;
                        checkSyncStateSet();
                    }
                }, thread);
    }

    private void onThread(Runnable task) {
        if (state == State.STOPPED) {
            return;
        }
        try {
            thread.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.error("controller agent step failed", e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("controller agent stopped");
        }
    }

    private void transition(State to, String why) {
        State from = state;
        state = to;
        LOG.info("controller agent of {}: {} -> {} ({})", brokerName, from, to, why);
    }

    private static Throwable cause(Throwable error) {
        Throwable t = error;
        while ((t instanceof java.util.concurrent.CompletionException
                || t instanceof java.util.concurrent.ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** The innermost cause's class and message, past CompletionException and ExecutionException. */
    static String rootMessage(Throwable error) {
        Throwable t = cause(error);
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    /** Stops heartbeats and polls. Idempotent. */
    @Override
    public void close() {
        if (state == State.STOPPED) {
            return;
        }
        transition(State.STOPPED, "closed");
        if (heartbeatTask != null) {
            heartbeatTask.cancel(false);
        }
        lease.revoke("the broker is shutting down");
        thread.shutdownNow();
    }
}
