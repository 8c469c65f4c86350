package org.modmq.remoting.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Many connections that announce large frames and send only part of them: the server bounds what they
 * hold together, closes the ones past the bound and, after the receive timeout, the rest, and keeps
 * answering a well-behaved client throughout. Also the connection limit.
 */
@Tag("integration")
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class FrameMemoryBoundTest {

    private static final int MIB = 1024 * 1024;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final ThreadPoolExecutor executor = ProcessorExecutors.bounded("test-processor", 2, 16);

    @AfterEach
    void stop() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
        executor.shutdownNow();
    }

    private RemotingServer server(RemotingServerConfig config) {
        RemotingServer server = new RemotingServer(config.withIoThreads(1).withShutdownGrace(Duration.ofSeconds(1)));
        server.registerProcessor(RequestCode.GET_ROUTEINFO_BY_TOPIC, RequestProcessor.sync((channel, request) ->
                RemotingCommand.responseTo(request, ResponseCode.SUCCESS, "ok")), executor);
        resources.add(server.start());
        return server;
    }

    @Test
    void boundsPartlyReceivedFramesAcrossConnectionsAndKeepsAnsweringOthers() throws Exception {
        RemotingServer server = server(RemotingServerConfig.of("127.0.0.1", 0).withMaxFrameLength(16 * MIB)
                .withMaxPendingFrameBytes(8 * MIB).withFrameReceiveTimeout(Duration.ofSeconds(3)));
        RemotingClient client = new RemotingClient(RemotingClientConfig.defaults());
        resources.add(client);
        String address = "127.0.0.1:" + server.port();
        assertThat(answered(client, address)).isTrue();

        List<Socket> attackers = new ArrayList<>();
        byte[] part = new byte[MIB];
        for (int i = 0; i < 20; i++) {
            Socket socket = new Socket("127.0.0.1", server.port());
            resources.add(socket);
            attackers.add(socket);
            try {
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                out.writeInt(16 * MIB);
                out.write(part);
                out.flush();
            } catch (SocketException closedByServer) {
                // past the bound the server closes the connection while it writes; that is the point
            }
            assertThat(server.pendingFrameBytes()).isLessThanOrEqualTo(8 * MIB);
        }
        await(() -> closedCount(attackers) >= 13, "the connections past the 8 MiB bound to be closed");
        assertThat(server.pendingFrameBytes()).isLessThanOrEqualTo(8 * MIB);
        assertThat(answered(client, address)).as("a well-formed request during the attack").isTrue();

        await(() -> closedCount(attackers) == attackers.size(), "the half-sent frames to time out");
        await(() -> server.pendingFrameBytes() == 0, "every held byte to be released");
        assertThat(answered(client, address)).isTrue();
    }

    @Test
    void refusesConnectionsBeyondTheLimitAndAdmitsAgainWhenOneCloses() throws Exception {
        RemotingServer server = server(RemotingServerConfig.of("127.0.0.1", 0).withMaxConnections(3));
        List<Socket> open = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Socket socket = new Socket("127.0.0.1", server.port());
            resources.add(socket);
            open.add(socket);
        }
        await(() -> server.connectionCount() == 3, "three connections");
        Socket fourth = new Socket("127.0.0.1", server.port());
        resources.add(fourth);
        await(() -> closed(fourth), "the fourth connection to be closed");
        assertThat(closedCount(open)).isZero();

        open.get(0).close();
        await(() -> server.connectionCount() == 2, "the closed connection to leave");
        RemotingClient client = new RemotingClient(RemotingClientConfig.defaults());
        resources.add(client);
        assertThat(answered(client, "127.0.0.1:" + server.port())).isTrue();
    }

    private static boolean answered(RemotingClient client, String address) throws Exception {
        RemotingCommand request = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, Map.of("topic", "T"));
        return client.invoke(address, request, Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS).code()
                == ResponseCode.SUCCESS;
    }

    private static long closedCount(List<Socket> sockets) {
        return sockets.stream().filter(FrameMemoryBoundTest::closed).count();
    }

    /** Whether the server closed the socket: end of stream or a reset, not a read timeout. */
    private static boolean closed(Socket socket) {
        try {
            socket.setSoTimeout(20);
            InputStream in = socket.getInputStream();
            return in.read() < 0;
        } catch (SocketTimeoutException open) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }
}
