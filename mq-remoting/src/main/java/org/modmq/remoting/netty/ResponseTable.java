package org.modmq.remoting.netty;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.modmq.remoting.protocol.RemotingCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requests we sent and await a response for, keyed by opaque. Each entry has a timer on its
 * channel's event loop; whoever completes an entry first (response, timeout, write failure,
 * channel close) removes it. Thread-safe.
 */
final class ResponseTable {

    private static final Logger LOG = LoggerFactory.getLogger(ResponseTable.class);

    private record Pending(Channel channel, CompletableFuture<RemotingCommand> future) {
    }

    private final Map<Integer, Pending> pending = new ConcurrentHashMap<>();

    CompletableFuture<RemotingCommand> invoke(Channel channel, RemotingCommand request, Duration timeout) {
        CompletableFuture<RemotingCommand> future = new CompletableFuture<>();
        int opaque = request.opaque();
        Pending entry = new Pending(channel, future);
        if (pending.putIfAbsent(opaque, entry) != null) {
            request.releaseBody();
            future.completeExceptionally(new RemotingSendException("opaque " + opaque + " is already pending", null));
            return future;
        }
        String what = "code " + request.code() + " opaque " + opaque + " to " + channel.remoteAddress();
        ScheduledFuture<?> timer = channel.eventLoop().schedule(() -> {
            if (pending.remove(opaque, entry)) {
                future.completeExceptionally(new RemotingTimeoutException(
                        "no response within " + timeout.toMillis() + " ms for " + what));
            }
        }, timeout.toNanos(), TimeUnit.NANOSECONDS);
        future.whenComplete((response, error) -> timer.cancel(false));
        channel.writeAndFlush(request).addListener(written -> {
            if (!written.isSuccess()) {
                request.releaseBody();
                if (pending.remove(opaque, entry)) {
                    future.completeExceptionally(new RemotingSendException("cannot send " + what, written.cause()));
                }
            }
        });
        return future;
    }

    void complete(RemotingCommand response) {
        Pending entry = pending.remove(response.opaque());
        if (entry == null) {
            LOG.debug("response matches no pending request (late or unknown): {}", response);
            return;
        }
        entry.future().complete(response);
    }

    void failChannel(Channel channel) {
        pending.forEach((opaque, entry) -> {
            if (entry.channel() == channel && pending.remove(opaque, entry)) {
                entry.future().completeExceptionally(new RemotingSendException(
                        "connection to " + channel.remoteAddress() + " closed before the response to opaque "
                                + opaque + " arrived", null));
            }
        });
    }

    int size() {
        return pending.size();
    }
}
