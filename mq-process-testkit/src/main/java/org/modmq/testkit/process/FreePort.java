package org.modmq.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports on 127.0.0.1 for the processes under test. A port picked here was free a moment ago: it was
 * bound and released again, so another process may take it before ours binds; the start-up wait of
 * {@link ChildProcess} then fails with the process's output. Stateless and thread-safe.
 *
 * <p>Ports come from below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}): a port
 * the kernel handed to {@code bind(0)} is one it may hand to the next outgoing connection of any test
 * running beside us, and a listener picked that way then fails to bind (seen in CI). Below the range only
 * other pickers compete, and each pick is checked by binding it.
 */
public final class FreePort {

    private static final int CONNECT_TIMEOUT_MILLIS = 200;
    private static final int LOWEST = 10_000;
    private static final int ATTEMPTS = 1_000;
    private static final Path PORT_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private FreePort() {
    }

    /** One port that was free on 127.0.0.1 a moment ago (bound and released). */
    public static int pick() {
        return pick(1)[0];
    }

    /**
     * {@code count} distinct ports that were free on 127.0.0.1 a moment ago: all are bound at the same
     * time before they are released, so none repeats.
     */
    public static int[] pick(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = boundOutsideEphemeralRange();
                held.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
        } finally {
            closeAll(held);
        }
    }

    /**
     * A port {@code p} such that every port from {@code p - below} to {@code p + above} was free on
     * 127.0.0.1 a moment ago, for a server that binds neighbours of its port too (a stock RocketMQ
     * broker binds {@code listenPort - 2} and its HA port {@code listenPort + 1}: {@code pickRun(2, 1)}).
     *
     * @throws IllegalStateException if 100 attempts found no such run
     */
    public static int pickRun(int below, int above) {
        if (below < 0 || above < 0) {
            throw new IllegalArgumentException("below and above must not be negative: " + below + ", " + above);
        }
        for (int attempt = 0; attempt < 100; attempt++) {
            int candidate = pick();
            if (candidate - below < 1024 || candidate + above > 65535) {
                continue;
            }
            List<ServerSocket> held = new ArrayList<>();
            try {
                for (int port = candidate - below; port <= candidate + above; port++) {
                    held.add(bound(port));
                }
                return candidate;
            } catch (IOException e) {
                // one of the neighbours is taken: try another candidate
                continue;
            } finally {
                closeAll(held);
            }
        }
        throw new IllegalStateException("no run of " + (below + above + 1) + " free ports found on 127.0.0.1");
    }

    /** Whether something accepts TCP connections on 127.0.0.1:{@code port} (one connect, 200 ms at most). */
    public static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_TIMEOUT_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A socket bound to a random free port below the ephemeral range, or to one the kernel picks. */
    private static ServerSocket boundOutsideEphemeralRange() throws IOException {
        int ephemeralLow = ephemeralRangeLow();
        if (ephemeralLow - LOWEST >= 1_000) {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                int candidate = ThreadLocalRandom.current().nextInt(LOWEST, ephemeralLow);
                try {
                    return bound(candidate);
                } catch (IOException taken) {
                    // in use by someone else: draw again
                }
            }
        }
        return bound(0);
    }

    /** The lowest ephemeral port, or {@link #LOWEST} where the range cannot be read (then bind(0) is used). */
    static int ephemeralRangeLow() {
        try {
            // Line by line: Files.readString trusts the size /proc reports and returned "3" for "32768\t60999"
            // here, so every pick fell back to bind(0) inside the range (a compat test failed on it).
            String[] range = Files.readAllLines(PORT_RANGE).get(0).trim().split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException e) {
            return LOWEST;
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
        UncheckedIOException failure = null;
        for (ServerSocket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = new UncheckedIOException("cannot release a probe socket", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
