package org.modmq.broker.registration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.modmq.broker.config.NameServerConfig;
import org.modmq.broker.metadata.TopicChangeListener;
import org.modmq.broker.metadata.TopicConfigTable;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.Perm;
import org.modmq.remoting.protocol.body.RegisterBrokerBody;
import org.modmq.remoting.protocol.body.TopicConfig;
import org.modmq.remoting.protocol.body.TopicConfigSerializeWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this broker registered with every name server in {@code namesrvAddr}: a full REGISTER_BROKER
 * (103) at start and every {@code registerNameServerPeriod}, an incremental one (only the changed topic,
 * with the new DataVersion) whenever a topic is created or changed, and UNREGISTER_BROKER (104) on
 * clean shutdown. One connection per name server is kept and reused by the {@link RemotingClient}
 * (the name server drops a broker whose connection closes). A slave learns its master's address and
 * HA address from the responses.
 *
 * <p>Threading: thread-safe; requests are asynchronous, nothing here blocks except
 * {@link #unregisterAll(Duration)}, which waits at most its timeout. The client and the scheduler
 * belong to the caller.
 */
public final class NameServerRegistrationAgent implements TopicChangeListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NameServerRegistrationAgent.class);

    private volatile RegistrationTarget target;
    private final NameServerConfig nameServers;
    private final TopicConfigTable topics;
    private final RemotingClient client;
    private final ScheduledExecutorService scheduler;
    private final MasterListener masterListener;
    /** Orders master updates from concurrent answers; never held while waiting (start() holds this). */
    private final Object masterLock = new Object();
    private volatile ScheduledFuture<?> periodic;
    private volatile String masterAddr;
    private volatile String masterHaAddr;
    private volatile boolean closed;
    private volatile boolean storeWritable = true;

    public NameServerRegistrationAgent(RegistrationTarget target, NameServerConfig nameServers,
                                       TopicConfigTable topics, RemotingClient client,
                                       ScheduledExecutorService scheduler) {
        this(target, nameServers, topics, client, scheduler, MasterListener.NONE);
    }

    /**
     * @param masterListener told on a remoting client thread whenever an answer names a master (main or
     *        HA address) other than the last one
     */
    public NameServerRegistrationAgent(RegistrationTarget target, NameServerConfig nameServers,
                                       TopicConfigTable topics, RemotingClient client,
                                       ScheduledExecutorService scheduler, MasterListener masterListener) {
        this.masterListener = Objects.requireNonNull(masterListener, "masterListener");
        this.target = Objects.requireNonNull(target, "target");
        this.nameServers = Objects.requireNonNull(nameServers, "nameServers");
        this.topics = Objects.requireNonNull(topics, "topics");
        this.client = Objects.requireNonNull(client, "client");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /**
     * Registers with every name server, waiting at most {@code registerBrokerTimeoutMills} for the
     * answers (so that no incremental registration reaches a name server before the full one), then
     * re-registers every period and on every topic change. Call once; failures are logged, never thrown.
     */
    public synchronized void start() {
        if (periodic != null || closed) {
            return;
        }
        if (nameServers.addresses().isEmpty()) {
            LOG.warn("namesrvAddr is empty: the broker registers with no name server");
            return;
        }
        long period = nameServers.registerPeriodMillis();
        DataVersion registered = topics.dataVersion();
        try {
            Map<String, Integer> codes = registerAll().get(nameServers.registerTimeoutMillis(), TimeUnit.MILLISECONDS);
            LOG.info("registered with the name servers: {}", codes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.warn("first registration with the name servers did not complete: {}", e.toString());
        }
        topics.addListener(this);
        // A topic created while the first registration was in flight had no listener to announce it; without
        // this it would reach the name servers only with the next periodic registration.
        if (!topics.dataVersion().equals(registered)) {
            registerQuietly();
        }
        periodic = scheduler.scheduleAtFixedRate(this::registerQuietly, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Controller mode: starts without waiting for the first answers (the role just changed on the
     * controller agent's thread, which must not block): registers now, then every period and on every
     * topic change. Later calls register again at once.
     */
    public synchronized void startOrRegisterNow() {
        if (closed) {
            return;
        }
        if (periodic != null) {
            registerAll();
            return;
        }
        if (nameServers.addresses().isEmpty()) {
            LOG.warn("namesrvAddr is empty: the broker registers with no name server");
            return;
        }
        long period = nameServers.registerPeriodMillis();
        topics.addListener(this);
        registerAll().thenAccept(codes -> LOG.info("registered with the name servers: {}", codes));
        periodic = scheduler.scheduleAtFixedRate(this::registerQuietly, period, period, TimeUnit.MILLISECONDS);
    }

    /** Controller mode: this broker now registers as {@code next} (its id changes with its role). */
    public void retarget(RegistrationTarget next) {
        target = Objects.requireNonNull(next, "next");
    }

    /**
     * The store stopped (false) or started again (true) taking writes after a storage error. While it
     * takes none, every registration sends the broker's permission without write (topic perms are
     * masked with it, as a broker with {@code brokerPermission} read-only does), so producers' routes
     * leave this broker; a change registers with every name server at once. Any thread; never blocks.
     */
    public void storeWritable(boolean writable) {
        if (storeWritable == writable) {
            return;
        }
        storeWritable = writable;
        LOG.warn("store {} writable: registering with permission {}", writable ? "is" : "is not",
                effectivePermission(target));
        // Name servers take a registration's topic perms only with a new data version (as RocketMQ bumps it
        // when brokerPermission changes).
        topics.bumpVersion();
        if (!closed && periodic != null) {
            registerAll();
        }
    }

    /** The permission registrations carry now: the configured one, without write while the store is unwritable. */
    public int effectivePermission() {
        return effectivePermission(target);
    }

    private int effectivePermission(RegistrationTarget target) {
        return storeWritable ? target.permission() : target.permission() & ~Perm.WRITE;
    }

    /** How this broker names itself to the name servers now. */
    public RegistrationTarget target() {
        return target;
    }

    /**
     * Sends the whole topic table to every name server.
     *
     * @return per name server address, the response code (or -1 when the request failed)
     */
    public CompletableFuture<Map<String, Integer>> registerAll() {
        return send(topics.wrapper());
    }

    @Override
    public void topicChanged(TopicConfig topic, DataVersion version) {
        if (closed) {
            return;
        }
        TopicConfigSerializeWrapper increment = TopicConfigSerializeWrapper.withMapping(version,
                Map.of(topic.topicName(), topic), version);
        send(increment);
    }

    /** The master's address as the name servers reported it to this slave, if any. */
    public Optional<String> masterAddr() {
        return Optional.ofNullable(masterAddr);
    }

    /** The master's HA address as the name servers reported it to this slave, if any. */
    public Optional<String> masterHaAddr() {
        return Optional.ofNullable(masterHaAddr);
    }

    /** Sends UNREGISTER_BROKER to every name server and waits at most {@code timeout} for the answers. */
    public void unregisterAll(Duration timeout) {
        RegistrationTarget target = this.target;
        List<CompletableFuture<?>> pending = new ArrayList<>();
        for (String address : nameServers.addresses()) {
            RemotingCommand request = RemotingCommand.request(RequestCode.UNREGISTER_BROKER)
                    .putExtField("brokerName", target.brokerName())
                    .putExtField("brokerAddr", target.brokerAddr())
                    .putExtField("clusterName", target.clusterName())
                    .putExtField("brokerId", target.brokerId());
            pending.add(client.invoke(address, request, timeout).handle((r, e) -> {
                if (e != null) {
                    LOG.info("unregister from name server {} failed: {}", address, e.toString());
                }
                return null;
            }));
        }
        try {
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(timeout.toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.info("unregistering from the name servers did not finish within {}", timeout);
        }
    }

    /** Stops the periodic registration. Idempotent; does not unregister. */
    @Override
    public synchronized void close() {
        closed = true;
        if (periodic != null) {
            periodic.cancel(false);
        }
    }

    private void registerQuietly() {
        if (!closed) {
            registerAll();
        }
    }

    private CompletableFuture<Map<String, Integer>> send(TopicConfigSerializeWrapper table) {
        RegistrationTarget target = this.target;
        byte[] body = Json.encode(new RegisterBrokerBody(List.of(),
                restrictedByBrokerPerm(table, effectivePermission(target))));
        Map<String, CompletableFuture<Integer>> answers = new LinkedHashMap<>();
        for (String address : nameServers.addresses()) {
            answers.put(address, client.invoke(address, registerRequest(target, body),
                    Duration.ofMillis(nameServers.registerTimeoutMillis())).handle((response, error) -> {
                        if (error != null) {
                            LOG.warn("register with name server {} failed: {}", address, error.toString());
                            return -1;
                        }
                        onResponse(address, target, response);
                        return response.code();
                    }));
        }
        return CompletableFuture.allOf(answers.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<String, Integer> codes = new LinkedHashMap<>();
            answers.forEach((address, code) -> codes.put(address, code.join()));
            return codes;
        });
    }

    private static RemotingCommand registerRequest(RegistrationTarget target, byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return RemotingCommand.request(RequestCode.REGISTER_BROKER)
                .putExtField("brokerName", target.brokerName())
                .putExtField("brokerAddr", target.brokerAddr())
                .putExtField("clusterName", target.clusterName())
                .putExtField("haServerAddr", target.haServerAddr())
                .putExtField("brokerId", target.brokerId())
                .putExtField("enableActingMaster", false)
                .putExtField("compressed", false)
                .putExtField("bodyCrc32", crc.getValue() & 0x7FFFFFFFL)
                .withBody(body);
    }

    private void onResponse(String address, RegistrationTarget target, RemotingCommand response) {
        if (response.code() != ResponseCode.SUCCESS) {
            LOG.warn("name server {} refused the registration: code {} {}", address, response.code(),
                    response.remark());
            return;
        }
        String master = response.extField("masterAddr");
        String ha = response.extField("haServerAddr");
        if (target.brokerId() != 0 && master != null && !master.isEmpty()) {
            String haAddr = ha == null || ha.isEmpty() ? null : ha;
            boolean changed;
            synchronized (masterLock) {
                changed = !master.equals(masterAddr) || !Objects.equals(haAddr, masterHaAddr);
                masterAddr = master;
                masterHaAddr = haAddr;
            }
            if (changed) {
                LOG.info("master of {} is {} (HA {})", target.brokerName(), master, haAddr);
                try {
                    masterListener.masterChanged(master, haAddr);
                } catch (RuntimeException e) {
                    LOG.warn("acting on the new master {} (HA {}) failed", master, haAddr, e);
                }
            }
        }
    }

    private static TopicConfigSerializeWrapper restrictedByBrokerPerm(TopicConfigSerializeWrapper table, int perm) {
        if (Perm.readable(perm) && Perm.writable(perm)) {
            return table;
        }
        Map<String, TopicConfig> restricted = new LinkedHashMap<>();
        table.topicConfigTable().forEach((name, t) -> restricted.put(name, t.withPerm(t.perm() & perm)));
        return TopicConfigSerializeWrapper.withMapping(table.dataVersion(), restricted, table.mappingDataVersion());
    }
}
