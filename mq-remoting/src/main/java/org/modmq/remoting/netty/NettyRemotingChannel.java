package org.modmq.remoting.netty;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.modmq.remoting.protocol.RemotingCommand;

/** The one {@link RemotingChannel} of a Netty channel, stored as a channel attribute. Thread-safe. */
final class NettyRemotingChannel implements RemotingChannel {

    private static final AttributeKey<NettyRemotingChannel> KEY = AttributeKey.valueOf(NettyRemotingChannel.class, "rc");

    private final Channel channel;
    private final ResponseTable responses;

    private NettyRemotingChannel(Channel channel, ResponseTable responses) {
        this.channel = channel;
        this.responses = responses;
    }

    static NettyRemotingChannel of(Channel channel, ResponseTable responses) {
        NettyRemotingChannel created = new NettyRemotingChannel(channel, responses);
        NettyRemotingChannel existing = channel.attr(KEY).setIfAbsent(created);
        return existing != null ? existing : created;
    }

    Channel channel() {
        return channel;
    }

    @Override
    public String id() {
        return channel.id().asShortText();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) channel.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public String remoteAddressText() {
        InetSocketAddress address = remoteAddress();
        if (address == null) {
            return "";
        }
        String host = address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
        return host + ":" + address.getPort();
    }

    @Override
    public boolean isActive() {
        return channel.isActive();
    }

    @Override
    public CompletableFuture<Void> sendOneway(RemotingCommand request) {
        Objects.requireNonNull(request, "request").markOneway();
        CompletableFuture<Void> result = new CompletableFuture<>();
        channel.writeAndFlush(request).addListener(written -> {
            if (written.isSuccess()) {
                result.complete(null);
            } else {
                request.releaseBody();
                result.completeExceptionally(new RemotingSendException(
                        "cannot send one-way code " + request.code() + " to " + remoteAddressText(), written.cause()));
            }
        });
        return result;
    }

    @Override
    public CompletableFuture<RemotingCommand> invoke(RemotingCommand request, Duration timeout) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(timeout, "timeout");
        return responses.invoke(channel, request, timeout);
    }

    @Override
    public void close() {
        channel.close();
    }

    @Override
    public String toString() {
        return "RemotingChannel[" + id() + " " + remoteAddressText() + "]";
    }
}
