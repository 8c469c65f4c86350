package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's side of one AutoSwitch connection (RocketMQ {@code AutoSwitchHAClient}).
 *
 * <p>States ({@link AutoSwitchState}): READY until connected; HANDSHAKE once the 16-byte handshake is sent,
 * until the master's answer is reconciled with this log ({@link HandshakeReconciler}: stale masters refused,
 * a diverged tail cut); TRANSFER from the first report of this log's end on: transfer frames are applied
 * ({@link TransferApplier}) and each socket read whose frames grew the log is answered with one report, as is
 * a heartbeat interval without writing; SUSPEND when the log refuses replicated writes because the store became master
 * (the follower waits for the next role change); SHUTDOWN once closed. A frame of the wrong state, a
 * refusal, or silence for the housekeeping interval closes the connection and the follower redials.
 *
 * <p>Threads: confined to the channel's event loop. Each {@link MasterFrame.Transfer}'s body is released
 * here.
 */
final class AutoSwitchFollowerSession extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(AutoSwitchFollowerSession.class);

    private final FollowContext context;
    private AutoSwitchState state = AutoSwitchState.READY;
    private Channel channel;
    private final String peer;
    private ScheduledFuture<?> tick;
    private TransferApplier applier;
    private long lastRead;
    private long lastWrite;
    private boolean reportDue;

    AutoSwitchFollowerSession(FollowContext context) {
        this.context = Objects.requireNonNull(context, "context");
        this.peer = context.target().address().toString();
    }

    AutoSwitchState state() {
        return state;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        lastRead = context.clock().millis();
        long period = context.config().tick().toMillis();
        tick = ctx.executor().scheduleAtFixedRate(this::onTick, period, period, TimeUnit.MILLISECONDS);
        context.events().connected(context.generation());
        transition(AutoSwitchState.HANDSHAKE, "connected; sending the handshake as broker "
                + context.target().brokerId());
        write(AutoSwitchSlaveLayout.handshake(channel.alloc(), context.config().syncFromLastFile(),
                context.config().asyncLearner(), context.target().brokerId()));
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastRead = context.clock().millis();
        try {
            if (state == AutoSwitchState.SUSPEND || state == AutoSwitchState.SHUTDOWN) {
                return;
            }
            if (msg instanceof MasterFrame.Handshake hello) {
                onHandshake(hello);
            } else if (msg instanceof MasterFrame.Transfer frame) {
                onTransfer(frame);
            }
        } catch (RefusalException e) {
            refuse(e.getMessage());
        } catch (IllegalStateException e) {
            suspend(e.getMessage());
        } catch (StorageException e) {
            LOG.error("replicating from master {} failed; reconnecting", peer, e);
            refuse("storage failure: " + e.getMessage());
        } finally {
            if (msg instanceof MasterFrame.Transfer frame) {
                frame.body().release();
            }
        }
    }

    private void onHandshake(MasterFrame.Handshake hello) throws RefusalException {
        if (state != AutoSwitchState.HANDSHAKE) {
            throw new RefusalException("a handshake answer while in " + state);
        }
        LOG.info("master {} answers the handshake: max offset {}, last epoch {}, epochs {}", peer, hello.maxOffset(),
                hello.lastEpoch(), hello.entries());
        long report = HandshakeReconciler.reconcile(context.log(), hello, context.target().epoch(), peer);
        applier = new TransferApplier(context.log(), new EpochTimeline(hello.entries(), Long.MAX_VALUE));
        applier.alignAtEnd();
        transition(AutoSwitchState.TRANSFER, "reconciled; reporting " + report);
        report();
    }

    private void onTransfer(MasterFrame.Transfer frame) throws RefusalException {
        if (state != AutoSwitchState.TRANSFER) {
            throw new RefusalException("a transfer frame while in " + state);
        }
        if (applier.apply(frame)) {
            context.events().applied(context.generation());
            reportDue = true;
        }
    }

    /** After the frames of one socket read: one report for all of them (a report is a write syscall). */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (reportDue && state == AutoSwitchState.TRANSFER && channel.isActive()) {
            reportDue = false;
            report();
        }
        ctx.fireChannelReadComplete();
    }

    private void report() {
        write(AutoSwitchSlaveLayout.report(channel.alloc(), context.log().maxOffset()));
    }

    private void write(ByteBuf frame) {
        lastWrite = context.clock().millis();
        channel.writeAndFlush(frame).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    private void onTick() {
        if (state == AutoSwitchState.SUSPEND || state == AutoSwitchState.SHUTDOWN || !channel.isActive()) {
            return;
        }
        long now = context.clock().millis();
        if (now - lastRead >= context.config().housekeepingInterval().toMillis()) {
            refuse("nothing from the master for " + (now - lastRead) + " ms (haHousekeepingInterval)");
            return;
        }
        if (state == AutoSwitchState.TRANSFER && now - lastWrite >= context.config().heartbeatInterval().toMillis()) {
            report();
        }
    }

    private void refuse(String why) {
        LOG.error("replication from master {}: {}; closing the connection", peer, why);
        transition(AutoSwitchState.SHUTDOWN, "refused");
        channel.close();
    }

    private void suspend(String why) {
        LOG.info("replication from master {} stops: the log refuses replicated writes ({})", peer, why);
        transition(AutoSwitchState.SUSPEND, "the store is master");
        context.events().halt(context.generation(), "the store became master");
        channel.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (tick != null) {
            tick.cancel(false);
        }
        transition(AutoSwitchState.SHUTDOWN, "connection closed");
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
            refuse(cause.getMessage());
            return;
        }
        if (cause instanceof IOException) {
            LOG.info("connection to master {} failed: {}", peer, cause.getMessage());
        } else {
            LOG.error("replication from master {} failed; reconnecting", peer, cause);
        }
        transition(AutoSwitchState.SHUTDOWN, "error");
        ctx.close();
    }

    private void transition(AutoSwitchState to, String reason) {
        AutoSwitchState from = state;
        if (from != to && from != AutoSwitchState.SHUTDOWN) {
            state = to;
            LOG.info("follower of {}: {} -> {} ({})", peer, from, to, reason);
        }
    }
}
