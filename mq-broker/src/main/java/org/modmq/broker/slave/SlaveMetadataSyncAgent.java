package org.modmq.broker.slave;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.modmq.api.config.BrokerRole;
import org.modmq.broker.config.BrokerIdentityConfig;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingConnectException;
import org.modmq.remoting.netty.RemotingSendException;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On a slave, copies the master's metadata over the master's main port (docs/protocol.md section 12.6):
 * GET_ALL_TOPIC_CONFIG (21), GET_ALL_CONSUMER_OFFSET (43), GET_ALL_DELAY_OFFSET (45) and
 * GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201), applied to the slave's own tables by a
 * {@link MetadataMirror} (the tables persist themselves and the slave's processors serve them).
 * The master's address comes from a supplier, normally the name-server registration agent's
 * {@code masterAddr()}; while it is unknown the sync is skipped.
 *
 * <p>Runs on its own single daemon thread, so a slow or absent master never holds the broker's
 * shared scheduler: each request waits at most {@code requestTimeout}. A failure stops that round
 * (later steps wait for the next one); it is logged once when the state changes (a new kind of
 * failure, or recovery), not every period.
 *
 * <p>Threading: {@link #start()} and {@link #close()} by the owner; {@link #syncOnce()} from any
 * thread, serialised. The client and the metadata belong to the caller. Close is idempotent.
 */
public final class SlaveMetadataSyncAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SlaveMetadataSyncAgent.class);
    private static final String NO_MASTER = "no-master";

    private final RemotingClient client;
    private final Supplier<Optional<String>> masterAddress;
    private final SlaveSyncSettings settings;
    private final MetadataMirror mirror;
    private final ScheduledExecutorService thread;
    private String lastProblem;
    private boolean started;
    private volatile boolean closed;

    /**
     * @param local the slave's metadata tables
     * @param client remoting client used to reach the master (shared, not closed here)
     * @param masterAddress the master's {@code host:port}, empty while unknown
     * @param settings timing
     */
    public SlaveMetadataSyncAgent(BrokerMetadata local, RemotingClient client,
                                  Supplier<Optional<String>> masterAddress, SlaveSyncSettings settings) {
        this.mirror = new MetadataMirror(Objects.requireNonNull(local, "local"));
        this.client = Objects.requireNonNull(client, "client");
        this.masterAddress = Objects.requireNonNull(masterAddress, "masterAddress");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "SlaveMetadataSync");
            t.setDaemon(true);
            return t;
        });
    }

    /** Whether a broker with this identity runs the sync (brokerRole=SLAVE). */
    public static boolean appliesTo(BrokerIdentityConfig identity) {
        return identity.role() == BrokerRole.SLAVE;
    }

    /** Schedules the first sync after the initial delay and the next ones every period. Once only. */
    public synchronized void start() {
        if (started || closed) {
            return;
        }
        started = true;
        thread.scheduleWithFixedDelay(this::syncQuietly, settings.initialDelay().toMillis(),
                settings.period().toMillis(), TimeUnit.MILLISECONDS);
        if (settings.offsetPeriod().compareTo(settings.period()) < 0) {
            thread.scheduleWithFixedDelay(this::syncOffsetsQuietly, settings.initialDelay().toMillis(),
                    settings.offsetPeriod().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Copies only the master's consumer offsets (between full syncs); failures wait for the next full one. */
    private synchronized void syncOffsetsQuietly() {
        Optional<String> master = masterAddress.get().filter(a -> !a.isBlank());
        if (closed || master.isEmpty()) {
            return;
        }
        try {
            mirror.applyConsumerOffsets(fetch(master.get(), RequestCode.GET_ALL_CONSUMER_OFFSET));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SyncFailure | RuntimeException e) {
            LOG.debug("consumer offset sync from {} failed: {}", master.get(), e.getMessage());
        }
    }

    /**
     * Runs one sync now on the calling thread.
     *
     * @return whether every step succeeded
     */
    public synchronized boolean syncOnce() {
        Optional<String> master = masterAddress.get().filter(a -> !a.isBlank());
        if (master.isEmpty()) {
            problem(NO_MASTER, "the master's address is not known yet; metadata sync waits", null);
            return false;
        }
        String address = master.get();
        String step = "GET_ALL_TOPIC_CONFIG";
        try {
            int topics = mirror.applyTopics(fetch(address, RequestCode.GET_ALL_TOPIC_CONFIG));
            step = "GET_ALL_CONSUMER_OFFSET";
            int offsets = mirror.applyConsumerOffsets(fetch(address, RequestCode.GET_ALL_CONSUMER_OFFSET));
            step = "GET_ALL_DELAY_OFFSET";
            int delays = mirror.applyDelayOffsets(fetch(address, RequestCode.GET_ALL_DELAY_OFFSET));
            step = "GET_ALL_SUBSCRIPTIONGROUP_CONFIG";
            int groups = mirror.applySubscriptionGroups(fetch(address, RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG));
            step = "";
            if (topics + offsets + delays + groups > 0) {
                LOG.debug("synced from master {}: {} topics, {} offsets, {} delay offsets, {} groups changed",
                        address, topics, offsets, delays, groups);
            }
            if (lastProblem != null) {
                LOG.info("metadata sync from master {} works again", address);
                lastProblem = null;
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (SyncFailure e) {
            problem(step + "@" + address + ":" + e.kind(),
                    "metadata sync from master " + address + " failed at " + step + ": " + e.getMessage(), null);
            return false;
        } catch (RuntimeException e) {
            problem(step + "@" + address + ":" + e.getClass().getName(),
                    "metadata sync from master " + address + " failed while applying " + step + ": " + e, e);
            return false;
        }
    }

    /**
     * Stops the sync thread. A round in progress ends after its current request (at most the request
     * timeout) rather than being interrupted while it writes the tables; only a thread still busy
     * after that is interrupted. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        thread.shutdown();
        try {
            if (!thread.awaitTermination(settings.requestTimeout().toMillis() + 1_000, TimeUnit.MILLISECONDS)) {
                thread.shutdownNow();
                LOG.warn("metadata sync thread did not stop in time and was interrupted");
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private void syncQuietly() {
        if (closed) {
            return;
        }
        try {
            syncOnce();
        } catch (RuntimeException e) {
            LOG.warn("metadata sync round failed unexpectedly", e);
        }
    }

    private JsonNode fetch(String address, int code) throws InterruptedException, SyncFailure {
        if (closed) {
            throw new SyncFailure("closed", "the agent is closing", null);
        }
        Duration timeout = settings.requestTimeout();
        RemotingCommand response;
        try {
            response = client.invoke(address, RemotingCommand.request(code), timeout)
                    .get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            while (cause instanceof CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            // A master that went away fails a send on the old channel, then every connect: one state.
            String kind = cause instanceof RemotingConnectException || cause instanceof RemotingSendException
                    ? "unreachable" : cause.getClass().getName();
            throw new SyncFailure(kind, cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new SyncFailure("timeout", "no answer within " + timeout, e);
        }
        if (response.code() != ResponseCode.SUCCESS) {
            throw new SyncFailure("code" + response.code(), "answered " + ResponseCode.name(response.code()) + " ("
                    + response.code() + "): " + response.remark(), null);
        }
        return Json.tree(response.body());
    }

    private void problem(String key, String message, Exception cause) {
        if (key.equals(lastProblem) || closed) {
            LOG.debug(message);
            return;
        }
        lastProblem = key;
        if (key.equals(NO_MASTER)) {
            LOG.info(message);
        } else if (cause == null) {
            LOG.warn(message);
        } else {
            LOG.warn(message, cause);
        }
    }

    /** The kind of the last failure ({@code null} after a successful round), for tests. */
    synchronized String lastProblem() {
        return lastProblem;
    }

    /** One request to the master failed. */
    static final class SyncFailure extends Exception {

        private static final long serialVersionUID = 1L;
        private final String kind;

        /** @param kind stable name of the failure, so that a repeated failure is logged once */
        SyncFailure(String kind, String message, Throwable cause) {
            super(message, cause);
            this.kind = kind;
        }

        String kind() {
            return kind;
        }
    }
}
