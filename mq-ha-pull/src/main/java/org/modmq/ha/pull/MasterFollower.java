package org.modmq.ha.pull;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.TransportTls;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's HA client: dials the master it is told to follow, runs one session per connection (a
 * {@link FollowerSession} for classic HA, an {@link AutoSwitchFollowerSession} in controller mode) and
 * redials a lost master after a delay that doubles from {@code reconnectMin} to {@code reconnectMax}. A
 * session that halts it (classic divergence, or a log that became master's) stops it until
 * {@link #follow} is called again.
 *
 * <p>Threads: {@link #follow} and {@link #close} may be called from any thread; callbacks from sessions
 * and timers arrive on the event loop. Every change is serialized by one lock and tagged with a
 * generation so callbacks of an abandoned connection are ignored.
 */
final class MasterFollower implements FollowerEvents, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MasterFollower.class);

    /** Follower states; every change goes through {@link #transition}. */
    enum State {
        /** Not told whom to follow yet. */
        IDLE,
        /** Dialing the master. */
        CONNECTING,
        /** Connected; handshaking, reporting and appending. */
        CONNECTED,
        /** Lost the master (or refused it); a redial is scheduled. */
        WAITING_TO_REDIAL,
        /** A session stopped it (diverged classic log, or the store became master); no redial. */
        HALTED,
        /** Told to stop following, or closed. */
        STOPPED
    }

    private final PullConfig config;
    private final ReplicatedLog log;
    private final Clock clock;
    private final EventLoopGroup group;
    private final TransportTls tls;
    private final Object lock = new Object();
    private volatile State state = State.IDLE;
    private FollowTarget target;
    private long generation;
    private Channel channel;
    private ScheduledFuture<?> redial;
    private Duration delay;
    private boolean closed;
    private volatile int dials;

    MasterFollower(PullConfig config, ReplicatedLog log, Clock clock, EventLoopGroup group) {
        this(config, log, clock, group, null);
    }

    /** As above; with {@code tls} (null for plain) every connection to a master is TLS. */
    MasterFollower(PullConfig config, ReplicatedLog log, Clock clock, EventLoopGroup group, TransportTls tls) {
        this.tls = tls;
        this.config = Objects.requireNonNull(config, "config");
        this.log = Objects.requireNonNull(log, "log");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.group = Objects.requireNonNull(group, "group");
        this.delay = config.reconnectMin();
    }

    State state() {
        return state;
    }

    /** Connection attempts so far (tests). */
    int dials() {
        return dials;
    }

    /**
     * Follows {@code next} from now on; null stops following. Calling it again with the target already
     * followed changes nothing unless the follower was halted.
     */
    void follow(FollowTarget next) {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the pull replication strategy is closed");
            }
            boolean running = state == State.CONNECTING || state == State.CONNECTED
                    || state == State.WAITING_TO_REDIAL;
            if (Objects.equals(next, target) && (running || next == null)) {
                return;
            }
            abandonLocked();
            target = next;
            delay = config.reconnectMin();
            if (next == null) {
                transition(State.STOPPED, "told to stop following");
                return;
            }
            dialLocked();
        }
    }

    private void abandonLocked() {
        generation++;
        if (redial != null) {
            redial.cancel(false);
            redial = null;
        }
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    private void addSession(ChannelPipeline pipeline, FollowContext context) {
        if (config.controllerMode()) {
            pipeline.addLast(new AutoSwitchMasterDecoder(), new AutoSwitchFollowerSession(context));
        } else {
            pipeline.addLast(new LengthFieldBasedFrameDecoder(
                    ClassicFrameLayout.HEADER_LENGTH + ClassicFrameLayout.MAX_BODY,
                    ClassicFrameLayout.SIZE_FIELD_OFFSET, 4, 0, 0), new FollowerSession(context));
        }
    }

    private void dialLocked() {
        long gen = generation;
        dials++;
        FollowContext context = new FollowContext(config, log, clock, this, target, gen);
        transition(State.CONNECTING, "dialing " + target.address() + " in epoch " + target.epoch());
        Bootstrap bootstrap = new Bootstrap()
                .group(group)
                .channel(PullTransport.channelClass(group))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 3_000)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast("tls", new SslHandler(tls.newClientEngine(ch.alloc(),
                                    context.target().address().host(), context.target().address().port())));
                        }
                        if (config.auth().isPresent()) {
                            ch.pipeline().addLast("auth", HaAuthGate.dialing(config.auth().get(),
                                    config.housekeepingInterval(), pipeline -> addSession(pipeline, context)));
                        } else {
                            addSession(ch.pipeline(), context);
                        }
                    }
                });
        ChannelFuture connect = bootstrap.connect(target.address().host(), target.address().port());
        Channel dialing = connect.channel();
        channel = dialing;
        connect.addListener(done -> {
            if (!done.isSuccess()) {
                lost(gen, dialing, "cannot connect to " + context.target().address() + ": "
                        + done.cause().getMessage());
            }
        });
        dialing.closeFuture().addListener(done -> lost(gen, dialing, "connection to the master closed"));
    }

    @Override
    public void connected(long gen) {
        synchronized (lock) {
            if (gen == generation && state == State.CONNECTING) {
                transition(State.CONNECTED, "connected to " + target.address());
            }
        }
    }

    @Override
    public void applied(long gen) {
        synchronized (lock) {
            if (gen == generation) {
                delay = config.reconnectMin();
            }
        }
    }

    @Override
    public void halt(long gen, String why) {
        synchronized (lock) {
            if (gen != generation) {
                return;
            }
            transition(State.HALTED, why);
            if (channel != null) {
                channel.close();
                channel = null;
            }
        }
    }

    private void lost(long gen, Channel which, String why) {
        synchronized (lock) {
            if (gen != generation || channel != which || closed
                    || state == State.HALTED || state == State.STOPPED) {
                return;
            }
            channel = null;
            Duration wait = delay;
            delay = delay.multipliedBy(2).compareTo(config.reconnectMax()) > 0 ? config.reconnectMax()
                    : delay.multipliedBy(2);
            transition(State.WAITING_TO_REDIAL, why + "; redialing in " + wait.toMillis() + " ms");
            redial = group.next().schedule(() -> redial(gen), wait.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void redial(long gen) {
        synchronized (lock) {
            if (gen == generation && !closed && state == State.WAITING_TO_REDIAL) {
                redial = null;
                dialLocked();
            }
        }
    }

    /** Stops following and closes the connection. Idempotent. */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            abandonLocked();
            transition(State.STOPPED, "closed");
            closed = true;
        }
    }

    private void transition(State to, String reason) {
        State from = state;
        state = to;
        if (from != to) {
            LOG.info("follower of {}: {} -> {} ({})", target == null ? "nobody" : target.address(), from, to,
                    reason);
        }
    }
}
