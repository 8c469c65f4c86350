package org.modmq.remoting.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.SerializeType;
import org.modmq.testkit.NettyLeakCheck;

@Tag("integration")
@Timeout(30)
@ExtendWith(NettyLeakCheck.class)
class RemotingServerTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    private final List<AutoCloseable> resources = new ArrayList<>();
    private ThreadPoolExecutor executor;
    private RemotingServer server;
    private RemotingClient client;
    private String address;

    @BeforeEach
    void start() {
        executor = ProcessorExecutors.bounded("test-processor", 2, 16);
        server = new RemotingServer(RemotingServerConfig.of("127.0.0.1", 0).withMaxFrameLength(64 * 1024)
                .withIoThreads(1).withShutdownGrace(Duration.ofSeconds(2)));
        server.registerProcessor(RequestCode.GET_ROUTEINFO_BY_TOPIC, RequestProcessor.sync((channel, request) ->
                RemotingCommand.responseTo(request, ResponseCode.SUCCESS, "ok")
                        .putExtField("topic", request.headers().requireString("topic"))
                        .withBody(request.body())), executor);
        server.start();
        client = new RemotingClient(RemotingClientConfig.defaults());
        address = "127.0.0.1:" + server.port();
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        server.close();
        executor.shutdownNow();
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    private RemotingCommand call(RemotingCommand request) throws Exception {
        return client.invoke(address, request, WAIT).get(10, TimeUnit.SECONDS);
    }

    @Test
    void roundTripsInBothSerializationsAndAnswersInTheRequestsType() throws Exception {
        for (SerializeType type : SerializeType.values()) {
            RemotingCommand request = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, Map.of("topic", "T"))
                    .setSerializeType(type).withBody("hello".getBytes(StandardCharsets.UTF_8));
            RemotingCommand response = call(request);
            assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(response.remark()).isEqualTo("ok");
            assertThat(response.opaque()).isEqualTo(request.opaque());
            assertThat(response.isResponse()).isTrue();
            assertThat(response.extField("topic")).isEqualTo("T");
            assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
            assertThat(response.serializeType()).isEqualTo(type);
        }
    }

    @Test
    void aRefusingRequestCheckIsAnsweredAndTheProcessorDoesNotRun() throws Exception {
        java.util.concurrent.atomic.AtomicInteger processed = new java.util.concurrent.atomic.AtomicInteger();
        server.registerProcessor(RequestCode.GET_KV_CONFIG, RequestProcessor.sync((channel, request) -> {
            processed.incrementAndGet();
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
        }), executor);
        server.setRequestCheck((channel, request) -> {
            if (!"yes".equals(request.extField("pass"))) {
                throw new org.modmq.remoting.protocol.ResponseCodeException(ResponseCode.NO_PERMISSION, "refused");
            }
        });
        RemotingCommand refused = call(RemotingCommand.request(RequestCode.GET_KV_CONFIG));
        assertThat(refused.code()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(refused.remark()).isEqualTo("refused");
        assertThat(processed).hasValue(0);
        RemotingCommand passed = call(RemotingCommand.request(RequestCode.GET_KV_CONFIG, Map.of("pass", "yes")));
        assertThat(passed.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(processed).hasValue(1);
    }

    @Test
    void theOutgoingHookAddsFieldsBeforeTheRequestIsWritten() throws Exception {
        client.setOutgoingRequestHook((target, request) -> request.putExtField("topic", "FromHook"));
        RemotingCommand response = call(RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC));
        assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(response.extField("topic")).isEqualTo("FromHook");
        client.setOutgoingRequestHook((target, request) -> {
            throw new IllegalStateException("no credentials");
        });
        assertThat(client.invoke(address, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC), WAIT))
                .failsWithin(Duration.ofSeconds(5)).withThrowableThat().withMessageContaining("no credentials");
    }

    @Test
    void answersAnUnknownCodeWithRequestCodeNotSupported() throws Exception {
        RemotingCommand response = call(RemotingCommand.request(9999));
        assertThat(response.code()).isEqualTo(ResponseCode.REQUEST_CODE_NOT_SUPPORTED);
        assertThat(response.remark()).isEqualTo(" request type 9999 not supported");
    }

    @Test
    void answersAMissingHeaderFieldWithARemarkNamingIt() throws Exception {
        RemotingCommand response = call(RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC));
        assertThat(response.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(response.remark()).isEqualTo("the custom header field 'topic' is missing");
    }

    @Test
    void answersAFailingProcessorWithSystemError() throws Exception {
        server.registerProcessor(RequestCode.GET_KV_CONFIG, (channel, request) -> {
            throw new IllegalStateException("boom");
        }, executor);
        RemotingCommand response = call(RemotingCommand.request(RequestCode.GET_KV_CONFIG));
        assertThat(response.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(response.remark()).isEqualTo("IllegalStateException: boom");
    }

    @Test
    void closesTheConnectionOnAnOversizedFrameWithoutReadingTheBodyAndStaysUp() throws Exception {
        try (Socket socket = rawSocket()) {
            OutputStream out = socket.getOutputStream();
            out.write(new byte[] {0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05});
            out.flush();
            assertThat(readUntilClosed(socket.getInputStream())).isZero();
        }
        assertThat(call(RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, Map.of("topic", "T"))).code())
                .isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void closesTheConnectionOnGarbage() throws Exception {
        try (Socket socket = rawSocket()) {
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readUntilClosed(socket.getInputStream())).isZero();
        }
        try (Socket socket = rawSocket()) {
            byte[] header = "{not json".getBytes(StandardCharsets.UTF_8);
            DataOutputStreamWrapper.frame(socket.getOutputStream(), 0, header);
            assertThat(readUntilClosed(socket.getInputStream())).isZero();
        }
    }

    @Test
    void rawSocketCanSendTheObservedJsonRequest() throws Exception {
        try (Socket socket = rawSocket()) {
            byte[] header = ("{\"code\":105,\"extFields\":{\"topic\":\"TopicTest\"},\"flag\":0,\"language\":\"JAVA\","
                    + "\"opaque\":0,\"serializeTypeCurrentRPC\":\"JSON\",\"version\":479}").getBytes(StandardCharsets.UTF_8);
            DataOutputStreamWrapper.frame(socket.getOutputStream(), 0, header);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int length = in.readInt();
            int word = in.readInt();
            byte[] rest = new byte[length - 4];
            in.readFully(rest);
            assertThat(word >>> 24).isZero();
            String json = new String(rest, 0, word & 0xFFFFFF, StandardCharsets.UTF_8);
            assertThat(json).startsWith("{\"code\":0,\"extFields\":{\"topic\":\"TopicTest\"},\"flag\":1,\"language\":\"JAVA\",\"opaque\":0,");
        }
    }

    @Test
    void answersSystemBusyWhenTheExecutorIsFull() throws Exception {
        ThreadPoolExecutor tiny = ProcessorExecutors.bounded("tiny", 1, 1);
        resources.add(tiny::shutdownNow);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        server.registerProcessor(RequestCode.PULL_MESSAGE, RequestProcessor.sync((channel, request) -> {
            running.countDown();
            awaitQuietly(release);
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
        }), tiny);
        CompletableFuture<RemotingCommand> first = client.invoke(address, RemotingCommand.request(RequestCode.PULL_MESSAGE), WAIT);
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<RemotingCommand> queued = client.invoke(address, RemotingCommand.request(RequestCode.PULL_MESSAGE), WAIT);
        RemotingCommand busy = call(RemotingCommand.request(RequestCode.PULL_MESSAGE));
        assertThat(busy.code()).isEqualTo(ResponseCode.SYSTEM_BUSY);
        assertThat(busy.remark()).isEqualTo("[OVERLOAD]system busy, start flow control for a while");
        release.countDown();
        assertThat(first.get(5, TimeUnit.SECONDS).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(queued.get(5, TimeUnit.SECONDS).code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void sendsNothingForAOnewayRequest() throws Exception {
        CountDownLatch seen = new CountDownLatch(1);
        server.registerProcessor(RequestCode.UPDATE_CONSUMER_OFFSET, RequestProcessor.sync((channel, request) -> {
            seen.countDown();
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null)
                    .withBody(PooledByteBufAllocator.DEFAULT.buffer().writeLong(1));
        }), executor);
        try (Socket socket = rawSocket()) {
            RemotingCommand oneway = RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET).markOneway();
            io.netty.buffer.ByteBuf frame = PooledByteBufAllocator.DEFAULT.buffer();
            try {
                org.modmq.remoting.codec.RemotingCommandEncoder.encodeFrame(oneway, 0, frame);
                socket.getOutputStream().write(ByteBufUtil.getBytes(frame));
            } finally {
                frame.release();
            }
            assertThat(seen.await(5, TimeUnit.SECONDS)).isTrue();
            RemotingCommand after = RemotingCommand.request(9999);
            frame = PooledByteBufAllocator.DEFAULT.buffer();
            try {
                org.modmq.remoting.codec.RemotingCommandEncoder.encodeFrame(after, 0, frame);
                socket.getOutputStream().write(ByteBufUtil.getBytes(frame));
            } finally {
                frame.release();
            }
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int length = in.readInt();
            byte[] rest = new byte[length];
            in.readFully(rest);
            assertThat(new String(rest, StandardCharsets.UTF_8)).contains("\"opaque\":" + after.opaque())
                    .contains("\"code\":3");
        }
    }

    @Test
    void holdsARequestUntilAnAsyncProcessorCompletesIt() throws Exception {
        AtomicReference<CompletableFuture<RemotingCommand>> held = new AtomicReference<>();
        AtomicReference<RemotingCommand> heldRequest = new AtomicReference<>();
        server.registerProcessor(RequestCode.PULL_MESSAGE, (channel, request) -> {
            CompletableFuture<RemotingCommand> future = new CompletableFuture<>();
            heldRequest.set(request);
            held.set(future);
            return future;
        }, executor);
        server.registerProcessor(RequestCode.SEND_MESSAGE, RequestProcessor.sync((channel, request) -> {
            held.get().complete(RemotingCommand.responseTo(heldRequest.get(), ResponseCode.SUCCESS, "woken")
                    .withBody(PooledByteBufAllocator.DEFAULT.directBuffer().writeBytes("msg".getBytes(StandardCharsets.UTF_8))));
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, "sent");
        }), executor);
        CompletableFuture<RemotingCommand> pull = client.invoke(address, RemotingCommand.request(RequestCode.PULL_MESSAGE), WAIT);
        awaitCondition(() -> held.get() != null, "the pull to be held");
        assertThat(pull).isNotDone();
        assertThat(server.requestsInFlight()).isEqualTo(1);
        assertThat(call(RemotingCommand.request(RequestCode.SEND_MESSAGE)).remark()).isEqualTo("sent");
        RemotingCommand woken = pull.get(5, TimeUnit.SECONDS);
        assertThat(woken.remark()).isEqualTo("woken");
        assertThat(new String(woken.body(), StandardCharsets.UTF_8)).isEqualTo("msg");
    }

    @Test
    void serverInvokesTheClientOverTheClientsConnection() throws Exception {
        AtomicReference<RemotingChannel> clientChannel = new AtomicReference<>();
        server.registerProcessor(RequestCode.HEART_BEAT, RequestProcessor.sync((channel, request) -> {
            clientChannel.set(channel);
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
        }), executor);
        CountDownLatch notified = new CountDownLatch(1);
        client.registerProcessor(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, RequestProcessor.sync((channel, request) -> {
            assertThat(request.isOneway()).isTrue();
            notified.countDown();
            return null;
        }), executor);
        client.registerProcessor(RequestCode.GET_CONSUMER_RUNNING_INFO, RequestProcessor.sync((channel, request) ->
                RemotingCommand.responseTo(request, ResponseCode.SUCCESS, "running " + request.extField("clientId"))), executor);
        call(RemotingCommand.request(RequestCode.HEART_BEAT));
        RemotingChannel channel = clientChannel.get();
        assertThat(channel.isActive()).isTrue();
        assertThat(channel.remoteAddressText()).startsWith("127.0.0.1:");
        channel.sendOneway(RemotingCommand.request(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, Map.of("consumerGroup", "g")))
                .get(5, TimeUnit.SECONDS);
        assertThat(notified.await(5, TimeUnit.SECONDS)).isTrue();
        RemotingCommand info = channel.invoke(RemotingCommand.request(RequestCode.GET_CONSUMER_RUNNING_INFO,
                Map.of("clientId", "c1")), WAIT).get(5, TimeUnit.SECONDS);
        assertThat(info.remark()).isEqualTo("running c1");
        RemotingCommand unknown = channel.invoke(RemotingCommand.request(RequestCode.CHECK_TRANSACTION_STATE), WAIT)
                .get(5, TimeUnit.SECONDS);
        assertThat(unknown.code()).isEqualTo(ResponseCode.REQUEST_CODE_NOT_SUPPORTED);
    }

    @Test
    void failsAnInvocationAfterItsTimeoutAndForgetsIt() throws Exception {
        server.registerProcessor(RequestCode.PULL_MESSAGE, (channel, request) -> new CompletableFuture<>(), executor);
        CompletableFuture<RemotingCommand> pull = client.invoke(address, RemotingCommand.request(RequestCode.PULL_MESSAGE),
                Duration.ofMillis(200));
        assertThatThrownBy(() -> pull.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(RemotingTimeoutException.class)
                .hasMessageContaining("no response within 200 ms");
        assertThat(client.pendingRequests()).isZero();
    }

    @Test
    void failsToConnectToAClosedPortClearly() {
        CompletableFuture<RemotingCommand> call = client.invoke("127.0.0.1:1", RemotingCommand.request(10), WAIT);
        assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(RemotingConnectException.class)
                .hasMessageContaining("cannot connect to 127.0.0.1:1");
    }

    @Test
    void tellsListenersWhenAClientConnectionCloses() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        server.addChannelCloseListener(channel -> closed.countDown());
        call(RemotingCommand.request(9999));
        assertThat(server.connectionCount()).isEqualTo(1);
        client.closeChannel(address);
        assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
        awaitCondition(() -> server.connectionCount() == 0, "the connection to leave the server's group");
    }

    @Test
    void closesIdleConnections() throws Exception {
        try (RemotingServer idle = new RemotingServer(RemotingServerConfig.of("127.0.0.1", 0).withIdleSeconds(1)).start();
                Socket socket = new Socket("127.0.0.1", idle.port())) {
            socket.setSoTimeout(10_000);
            assertThat(readUntilClosed(socket.getInputStream())).isZero();
        }
    }

    @Test
    void gracefulCloseLetsAnInFlightRequestFinish() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        server.registerProcessor(RequestCode.PULL_MESSAGE, RequestProcessor.sync((channel, request) -> {
            running.countDown();
            awaitQuietly(release);
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, "late");
        }), executor);
        CompletableFuture<RemotingCommand> pull = client.invoke(address, RemotingCommand.request(RequestCode.PULL_MESSAGE), WAIT);
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
        awaitCondition(() -> {
            try (Socket ignored = new Socket("127.0.0.1", server.port())) {
                return false;
            } catch (IOException | IllegalStateException refused) {
                return true;
            }
        }, "the server to stop accepting");
        assertThat(closing).isNotDone();
        release.countDown();
        assertThat(pull.get(5, TimeUnit.SECONDS).remark()).isEqualTo("late");
        closing.get(10, TimeUnit.SECONDS);
    }

    private Socket rawSocket() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** Reads until end of stream; returns the number of bytes received (0 = closed without answer). */
    private static int readUntilClosed(InputStream in) throws IOException {
        int total = 0;
        byte[] buffer = new byte[256];
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            total += n;
        }
        return total;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("latch not released within 20 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitCondition(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    /** Writes a frame with a raw header by hand, as a misbehaving peer would. */
    private static final class DataOutputStreamWrapper {
        static void frame(OutputStream out, int type, byte[] header) throws IOException {
            java.io.DataOutputStream data = new java.io.DataOutputStream(out);
            data.writeInt(4 + header.length);
            data.writeInt((type << 24) | header.length);
            data.write(header);
            data.flush();
        }
    }
}
