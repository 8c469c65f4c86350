package org.modmq.ha.push.replica;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.ha.push.config.PushConfig;
import org.modmq.ha.push.config.PushConfig.HostPort;
import org.modmq.ha.push.transport.HaTransport;
import org.modmq.ha.push.wire.PushFrameDecoder;
import org.modmq.ha.push.wire.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica side of the push strategy: keeps one connection to the master it follows, reconnecting
 * with exponential backoff ({@code haReconnectMinMillis} doubling up to {@code haReconnectMaxMillis})
 * after a drop, and stops following when the master refuses it.
 *
 * <p>Threads: public methods are thread-safe and return without waiting for the network. Connections
 * run on one event loop thread named {@code modmq-ha-push-replica-*}.
 */
public final class MasterFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MasterFollower.class);

    /** Lifecycle; transitions go through {@link #transition}. */
    public enum State { IDLE, CONNECTING, FOLLOWING, REFUSED, CLOSED }

    private final PushConfig config;
    private final ReplicatedLog log;
    private final PluginContext plugin;
    private final MultiThreadIoEventLoopGroup group;
    private final Bootstrap bootstrap;
    private State state = State.IDLE;
    private String target;
    private long generation;
    private long backoffMillis;
    private Channel channel;
    private FollowSession session;

    public MasterFollower(PushConfig config, ReplicatedLog log, PluginContext plugin) {
        this.config = Objects.requireNonNull(config, "config");
        this.log = Objects.requireNonNull(log, "log");
        this.plugin = Objects.requireNonNull(plugin, "plugin");
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
     * Follows the master at {@code haAddress} ({@code host:port}) from now on, dropping any current
     * connection; null stops following. Following the same address again keeps the connection.
     *
     * @throws org.modmq.api.config.ConfigException when the address is not {@code host:port}
     */
    public synchronized void follow(String haAddress) {
        if (state == State.CLOSED) {
            throw new IllegalStateException("push replica closed");
        }
        if (haAddress != null) {
            PushConfig.parseAddress(haAddress);
        }
        if (Objects.equals(haAddress, target) && state != State.REFUSED) {
            return;
        }
        generation++;
        target = haAddress;
        backoffMillis = config.reconnectMin().toMillis();
        dropConnection();
        if (haAddress == null) {
            transition(State.IDLE, "told to stop following");
        } else {
            connect(generation);
        }
    }

    /** The current state. */
    public synchronized State state() {
        return state;
    }

    private void connect(long expected) {
        synchronized (this) {
            if (state == State.CLOSED || generation != expected || target == null) {
                return;
            }
            transition(State.CONNECTING, "connecting to " + target);
            HostPort address = PushConfig.parseAddress(target);
            FollowSession next = new FollowSession(this, log, config, plugin.clock(), target);
            session = next;
            ChannelFuture future = bootstrap.clone().handler(new ChannelInitializer<>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new PushFrameDecoder(PushConfig.MAX_FRAME_BODY), next);
                }
            }).connect(address.host(), address.port());
            channel = future.channel();
            future.addListener(done -> {
                if (!done.isSuccess()) {
                    LOG.warn("cannot connect to master {}: {}", address.host() + ":" + address.port(),
                            String.valueOf(done.cause()));
                    retryLater(expected);
                }
            });
        }
    }

    private synchronized void retryLater(long expected) {
        if (state == State.CLOSED || state == State.REFUSED || generation != expected || target == null) {
            return;
        }
        long delay = backoffMillis;
        backoffMillis = Math.min(backoffMillis * 2, config.reconnectMax().toMillis());
        LOG.info("reconnecting to master {} in {} ms", target, delay);
        group.schedule(() -> connect(expected), delay, TimeUnit.MILLISECONDS);
    }

    synchronized void masterAlive() {
        backoffMillis = config.reconnectMin().toMillis();
        if (state == State.CONNECTING) {
            transition(State.FOLLOWING, "master " + target + " streaming");
        }
    }

    synchronized void connectionLost(FollowSession lost) {
        if (lost != session) {
            return;
        }
        session = null;
        channel = null;
        if (state == State.FOLLOWING || state == State.CONNECTING) {
            transition(State.CONNECTING, "connection to " + target + " lost");
            retryLater(generation);
        }
    }

    synchronized void refused(FollowSession from, Refusal reason, String detail) {
        if (from != session) {
            return;
        }
        if (reason == Refusal.DIVERGED) {
            LOG.error("master {} refused this replica: its CommitLog has bytes the master lacks or that differ "
                    + "from the master's ({}); no longer following until the log is truncated", target, detail);
        } else {
            LOG.error("master {} refused this replica ({}): {}; no longer following", target, reason, detail);
        }
        transition(State.REFUSED, reason + ": " + detail);
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
