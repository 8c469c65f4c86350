package org.modmq.broker.testing;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.protocol.RemotingCommand;

/** A RemotingChannel that records what is sent on it. */
public final class FakeChannel implements RemotingChannel {

    private final String id;
    private final List<RemotingCommand> oneways = new CopyOnWriteArrayList<>();
    private volatile boolean active = true;

    public FakeChannel(String id) {
        this.id = id;
    }

    public List<RemotingCommand> oneways() {
        return oneways;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", 40000);
    }

    @Override
    public InetSocketAddress localAddress() {
        return new InetSocketAddress("127.0.0.1", 10911);
    }

    @Override
    public String remoteAddressText() {
        return "127.0.0.1:40000";
    }

    @Override
    public boolean isActive() {
        return active;
    }

    @Override
    public CompletableFuture<Void> sendOneway(RemotingCommand request) {
        oneways.add(request);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<RemotingCommand> invoke(RemotingCommand request, Duration timeout) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("fake channel"));
    }

    @Override
    public void close() {
        active = false;
    }
}
