package org.modmq.compat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.modmq.testkit.process.FreePort;

/**
 * A TCP forwarder on 127.0.0.1 that can stand for a network partition between the processes on either
 * side: {@link #cut()} stops moving bytes in both directions on every connection and stops accepting new
 * ones, without closing anything (the kernel still completes the handshakes of new connections into the
 * backlog), so each side sees what a dropped link shows: requests that get no answer, no FIN, no RST.
 * Bytes read while cut are held, not dropped, and {@link #heal()} delivers them, as TCP's retransmissions
 * would. Threads: one acceptor and two per connection, all daemons; {@link #close()} ends them.
 */
final class PartitionProxy implements AutoCloseable {

    private final String upstreamHost;
    private final int upstreamPort;
    private final ServerSocket server;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private volatile boolean cut;
    private volatile boolean closed;

    /** Listens on a free 127.0.0.1 port and forwards each connection to {@code upstream} ({@code host:port}). */
    PartitionProxy(String upstream) throws IOException {
        int colon = upstream.lastIndexOf(':');
        this.upstreamHost = upstream.substring(0, colon);
        this.upstreamPort = Integer.parseInt(upstream.substring(colon + 1));
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), FreePort.pick()), 50);
        Thread acceptor = new Thread(this::acceptLoop, "partition-proxy-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** {@code 127.0.0.1:port} to give the client side instead of the upstream address. */
    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Stops forwarding and accepting until {@link #heal()}. */
    void cut() {
        cut = true;
    }

    /** Forwards again, the held bytes first. */
    void heal() {
        synchronized (gate) {
            cut = false;
            gate.notifyAll();
        }
    }

    private void awaitOpen() throws InterruptedException {
        synchronized (gate) {
            while (cut && !closed) {
                gate.wait(100);
            }
        }
    }

    private void acceptLoop() {
        try {
            while (!closed) {
                awaitOpen();
                Socket client = server.accept();
                Socket upstream;
                try {
                    upstream = new Socket(upstreamHost, upstreamPort);
                } catch (IOException e) {
                    client.close();
                    continue;
                }
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            }
        } catch (IOException | InterruptedException e) {
            // closed
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    awaitOpen();
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // one side went away: so does the other
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "partition-proxy-" + from.getLocalPort() + "-" + to.getPort());
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        closed = true;
        heal();
        closeQuietly(server);
        sockets.forEach(PartitionProxy::closeQuietly);
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
