package org.modmq.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/** Loopback ports for the processes under test. */
final class FreePort {

    private FreePort() {
    }

    /**
     * A port that was free on 127.0.0.1 a moment ago: bound with port 0 and released. Another process
     * may take it before ours binds; the start-up wait then fails with the process's output.
     */
    static int pick() {
        try (ServerSocket socket = bound(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
        }
    }

    /**
     * A listen port {@code p} for a stock RocketMQ broker: {@code p - 2} (its "fast" port), {@code p}
     * and {@code p + 1} (its HA port) were all free on 127.0.0.1 a moment ago.
     */
    static int pickBrokerBase() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int candidate = pick();
            if (candidate < 1026 || candidate > 65533) {
                continue;
            }
            List<ServerSocket> held = new ArrayList<>();
            try {
                for (int port = candidate - 2; port <= candidate + 1; port++) {
                    held.add(bound(port));
                }
                return candidate;
            } catch (IOException e) {
                // one of the neighbours is taken: try another base
            } finally {
                closeAll(held);
            }
        }
        throw new IllegalStateException("no run of four free ports found on 127.0.0.1");
    }

    /** Whether something accepts TCP connections on 127.0.0.1:{@code port}. */
    static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static ServerSocket bound(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        try {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    private static void closeAll(List<ServerSocket> sockets) {
        for (ServerSocket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot release a probe socket", e);
            }
        }
    }
}
