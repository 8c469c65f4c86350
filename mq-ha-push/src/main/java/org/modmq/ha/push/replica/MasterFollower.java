package org.modmq.ha.push.replica;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.ssl.SslHandler;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.TransportTls;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.config.PushConfig.HostPort;
import org.modmq.ha.push.transport.HaAuthGate;
import org.modmq.ha.push.transport.HaTransport;
import org.modmq.ha.push.wire.PushFrameDecoder;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.modmq.ha.push.wire.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica side of the push strategy: keeps one connection ({@link FollowSession}) to the master it
 * was told to follow, reconnecting with exponential backoff ({@code haReconnectMinMillis} doubling up to
 * {@code haReconnectMaxMillis}) after a drop or a retryable refusal (the broker there is not master yet,
 * or is a stale master). It stops following when the master refuses it for good ({@link State#REFUSED})
 * or when the log refuses a replicated write because the store is changing role
 * ({@link State#SUSPENDED}); the next {@link #follow} call starts again.
 *
 * <p>Threads: public methods are thread-safe and return without waiting for the network. Connections
 * run on one event loop thread named {@code modmq-ha-push-replica-*}.
 */
public final class MasterFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MasterFollower.class);

    /** Lifecycle; transitions go through {@link #transition}. */
    public enum State { IDLE, CONNECTING, FOLLOWING, REFUSED, SUSPENDED, CLOSED }

    /** Whom to follow: the master's HA address, the epoch the store follows in and this broker's id. */
    record Target(String address, int epoch, long brokerId) {
    }

    private final PushConfig config;
    private final ReplicatedLog log;
    private final Clock clock;
    private final TransportTls tls;
    private final MultiThreadIoEventLoopGroup group;
    private final Bootstrap bootstrap;
    private State state = State.IDLE;
    private Target target;
    private long generation;
    private long backoffMillis;
    private Channel channel;
    private volatile FollowSession session;

    public MasterFollower(PushConfig config, ReplicatedLog log, Clock clock) {
        this(config, log, clock, null);
    }

    /** As above; with {@code tls} (null for plain) every connection to a master is TLS. */
    public MasterFollower(PushConfig config, ReplicatedLog log, Clock clock, TransportTls tls) {
        this.tls = tls;
        this.config = Objects.requireNonNull(config, "config");
        this.log = Objects.requireNonNull(log, "log");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.backoffMillis = config.reconnectMin().toMillis();
        this.group = HaTransport.newGroup("modmq-ha-push-replica", 1);
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(HaTransport.channelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
                        config.silenceTimeout().toMillis()));
    }

    /**
     * Follows the master at {@code haAddress} ({@code host:port}) in {@code epoch} as broker
     * {@code brokerId} from now on, dropping any current connection; a null address stops following.
     * The same target again keeps a live connection (or one being retried).
     *
     * @throws org.modmq.api.config.ConfigException when the address is not {@code host:port}
     * @throws IllegalStateException after {@link #close()}
     */
    public synchronized void follow(int epoch, String haAddress, long brokerId) {
        if (state == State.CLOSED) {
            throw new IllegalStateException("push replica closed");
        }
        if (haAddress != null) {
            PushConfig.parseAddress(haAddress);
        }
        Target next = haAddress == null ? null : new Target(haAddress, epoch, brokerId);
        if (Objects.equals(next, target) && (state == State.CONNECTING || state == State.FOLLOWING)) {
            return;
        }
        generation++;
        target = next;
        backoffMillis = config.reconnectMin().toMillis();
        dropConnection();
        if (next == null) {
            transition(State.IDLE, "told to follow nobody");
        } else {
            connect(generation);
        }
    }

    /** The current state. */
    public synchronized State state() {
        return state;
    }

    /** Whether {@code candidate} is the connection frames should be applied from. */
    boolean current(FollowSession candidate) {
        return session == candidate;
    }

    private synchronized void connect(long expected) {
        if (state == State.CLOSED || generation != expected || target == null) {
            return;
        }
        Target to = target;
        transition(State.CONNECTING, "connecting to " + to.address() + " in epoch " + to.epoch());
        HostPort address = PushConfig.parseAddress(to.address());
        FollowSession next = new FollowSession(this, log, config, clock, to);
        session = next;
        ChannelFuture future = bootstrap.clone().handler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (tls != null) {
                    ch.pipeline().addLast("tls", new SslHandler(tls.newClientEngine(ch.alloc(), address.host(),
                            address.port())));
                }
                if (config.auth().isPresent()) {
                    ch.pipeline().addLast("auth", HaAuthGate.dialing(config.auth().get(), config.silenceTimeout(),
                            pipeline -> pipeline.addLast(new PushFrameDecoder(
                                    PushConfig.MAX_FRAME_BODY + PushFrameLayout.DATA_PREFIX_LENGTH), next)));
                    // A connection refused before the session was added never reaches it: redial from here.
                    ch.closeFuture().addListener(closed -> connectionLost(next));
                } else {
                    ch.pipeline().addLast(
                            new PushFrameDecoder(PushConfig.MAX_FRAME_BODY + PushFrameLayout.DATA_PREFIX_LENGTH), next);
                }
            }
        }).connect(address.host(), address.port());
        channel = future.channel();
        future.addListener(done -> {
            if (!done.isSuccess()) {
                LOG.warn("cannot connect to master {}: {}", to.address(), String.valueOf(done.cause()));
                retryLater(expected);
            }
        });
    }

    private synchronized void retryLater(long expected) {
        if (state != State.CONNECTING || generation != expected || target == null) {
            return;
        }
        long delay = backoffMillis;
        backoffMillis = Math.min(backoffMillis * 2, config.reconnectMax().toMillis());
        LOG.info("reconnecting to master {} in {} ms", target.address(), delay);
        group.schedule(() -> connect(expected), delay, TimeUnit.MILLISECONDS);
    }

    /** {@code from} agreed with its master and streams now. */
    synchronized void following(FollowSession from, String detail) {
        if (from != session) {
            return;
        }
        backoffMillis = config.reconnectMin().toMillis();
        transition(State.FOLLOWING, detail);
    }

    synchronized void connectionLost(FollowSession lost) {
        if (lost != session) {
            return;
        }
        session = null;
        channel = null;
        if (state == State.FOLLOWING || state == State.CONNECTING) {
            transition(State.CONNECTING, "connection to " + target.address() + " lost");
            retryLater(generation);
        }
    }

    /** The master refused {@code from}; a retryable refusal is retried when the connection drops. */
    synchronized void refused(FollowSession from, Refusal reason, String detail) {
        if (from != session) {
            return;
        }
        if (reason.retryable()) {
            LOG.warn("master {} refused this replica for now ({}): {}; trying again", target.address(), reason, detail);
            transition(State.CONNECTING, reason + ": " + detail);
            return;
        }
        LOG.error("master {} refused this replica ({}): {}; no longer following until told again",
                target.address(), reason, detail);
        transition(State.REFUSED, reason + ": " + detail);
    }

    /** The log refused a replicated write (the store is changing role): wait for the next {@link #follow}. */
    synchronized void suspended(FollowSession from, String detail) {
        if (from != session) {
            return;
        }
        transition(State.SUSPENDED, detail);
        dropConnection();
    }

    private void dropConnection() {
        Channel current = channel;
        channel = null;
        session = null;
        if (current != null) {
            current.close();
        }
    }

    private void transition(State to, String reason) {
        State from = state;
        if (from == to) {
            return;
        }
        state = to;
        LOG.info("push replica: {} -> {} ({})", from, to, reason);
    }

    /** Closes the connection and stops the event loop. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            transition(State.CLOSED, "closed");
            generation++;
            dropConnection();
        }
        HaTransport.shutdown(group);
    }
}
