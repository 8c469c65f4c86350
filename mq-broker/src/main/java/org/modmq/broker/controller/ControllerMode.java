package org.modmq.broker.controller;

import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.metadata.TopicConfigTable;
import org.modmq.broker.registration.NameServerRegistrationAgent;
import org.modmq.broker.registration.RegistrationTarget;
import org.modmq.broker.runtime.AccessControl;
import org.modmq.broker.runtime.AckGate;
import org.modmq.remoting.netty.ClientTls;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.store.MessageStore;

/**
 * Everything a broker in controller mode adds, wired once: the lease and its {@link AckGate} (made before
 * the store, which the data path reads it from), then the {@link ControllerRoleAgent} with its own remoting
 * client (closed on shutdown, so the controller sees this broker leave at once) and the role hooks that
 * re-register with the name servers on every role change. Thread-safe; {@link #close()} is idempotent.
 */
public final class ControllerMode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerMode.class);

    private final BrokerConfig config;
    private final WriteLease lease;
    private final ScheduledExecutorService scheduler;
    private volatile Supplier<Boolean> master = () -> false;
    private volatile ControllerRoleAgent agent;
    private volatile RemotingClient client;
    private volatile String masterAddress;

    public ControllerMode(BrokerConfig config, ScheduledExecutorService scheduler) {
        this.config = Objects.requireNonNull(config, "config");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.lease = new WriteLease(System::nanoTime, config.controller().leaseMillis(), scheduler);
    }

    /** Answers pass only while this broker is master with a valid lease. */
    public AckGate ackGate() {
        return new LeaseAckGate(lease, () -> master.get(), config.store().syncFlushTimeoutMillis());
    }

    /**
     * Starts the agent once the broker listens on {@code brokerAddress}; the name-server registration is
     * started by the first role the controllers name.
     */
    public ControllerRoleAgent start(MessageStore store, String brokerAddress, NameServerRegistrationAgent registration,
                                     TopicConfigTable topics, Clock clock, AtomicLong registeredId) {
        master = () -> store.role().master();
        client = new RemotingClient(RemotingClientConfig.defaults(), ClientTls.create(config.tls()));
        client.setOutgoingRequestHook(AccessControl.outgoingHook(config.acl()));
        // A modmq controller pushes role changes on the connection this broker's heartbeats come on.
        client.registerProcessor(RequestCode.NOTIFY_BROKER_ROLE_CHANGED, RequestProcessor.sync(this::notifiedByController),
                scheduler);
        RoleHooks hooks = new RoleHooks() {
            @Override
            public void becameMaster(int epoch) {
                masterAddress = brokerAddress;
                topics.stampStateVersion(epoch);
                registeredId.set(0);
                registration.retarget(withId(registration.target(), 0));
                registration.startOrRegisterNow();
            }

            @Override
            public void becameReplica(int epoch, long brokerId, String master) {
                masterAddress = master;
                topics.stampStateVersion(epoch);
                registeredId.set(brokerId);
                registration.retarget(withId(registration.target(), brokerId));
                registration.startOrRegisterNow();
            }
        };
        ControllerRoleAgent started = new ControllerRoleAgent(config.controller(), config.identity().clusterName(),
                config.identity().brokerName(), brokerAddress, store, client, lease, hooks, clock);
        agent = started;
        started.start();
        return started;
    }

    private RemotingCommand notifiedByController(RemotingChannel channel, RemotingCommand request) {
        ControllerRoleAgent current = agent;
        try {
            ReplicaView view = ControllerClient.view(request);
            if (current != null) {
                current.roleChangeNotifiedByController(view, channel.remoteAddressText());
            }
        } catch (RuntimeException e) {
            LOG.warn("ignoring a malformed NOTIFY_BROKER_ROLE_CHANGED from controller {}: {}",
                    channel.remoteAddressText(), e.getMessage());
        }
        return request.isOneway() ? null : RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
    }

    /** The current target (its permission may have changed at run time) under another id. */
    private static RegistrationTarget withId(RegistrationTarget base, long brokerId) {
        return new RegistrationTarget(base.clusterName(), base.brokerName(), brokerId, base.brokerAddr(),
                base.haServerAddr(), base.permission());
    }

    /** The master's main address while this broker is a replica (metadata sync reads it); empty otherwise. */
    public Optional<String> masterAddress() {
        return Optional.ofNullable(masterAddress);
    }

    /** The name servers named a master's HA address (replica only acts on its own master's). */
    public void masterNamed(String master, String haAddress) {
        ControllerRoleAgent current = agent;
        if (current != null) {
            current.masterNamed(master, haAddress);
        }
    }

    /** Stops the agent and closes the connections to the controllers. Idempotent. */
    @Override
    public void close() {
        ControllerRoleAgent current = agent;
        if (current != null) {
            current.close();
        }
        RemotingClient connections = client;
        if (connections != null) {
            connections.close();
        }
    }
}
