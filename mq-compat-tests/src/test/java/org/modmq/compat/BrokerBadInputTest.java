package org.modmq.compat;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;

/**
 * Bad input on the broker's port from a raw socket: broken frames close that connection, an unknown
 * request code is answered (in a frame the stock decoder reads), and the broker process keeps serving
 * the stock client afterwards.
 */
@Tag("integration")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BrokerBadInputTest {

    private static final int READ_TIMEOUT_MILLIS = 10_000;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ModmqCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ModmqCluster.start(workDir, 1, Map.of());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void brokenFramesCloseTheConnectionAndTheBrokerKeepsServing() throws Exception {
        // A length beyond the 16 MiB frame limit: refused before any body is read.
        assertClosedAfter("oversized frame", ByteBuffer.allocate(8).putInt(0x7FFF_FFF0).putInt(0).array());
        // Serialization type 5 in the header-length word's high byte: neither JSON (0) nor ROCKETMQ (1).
        assertClosedAfter("unknown serialization type", ByteBuffer.allocate(16).putInt(12).putInt((5 << 24) | 8)
                .putLong(0).array());
        // A header said to be longer than the whole frame.
        assertClosedAfter("header longer than frame", ByteBuffer.allocate(12).putInt(8).putInt(100).putInt(0).array());
        // A JSON header that is not JSON.
        byte[] garbage = "{\"code\":10,\"opaque\":oops".getBytes(UTF_8);
        assertClosedAfter("malformed JSON header", ByteBuffer.allocate(8 + garbage.length).putInt(4 + garbage.length)
                .putInt(garbage.length).put(garbage).array());
        // Random bytes.
        assertClosedAfter("random bytes", "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(UTF_8));

        assertThat(cluster.broker().isAlive()).as(cluster.broker().output()).isTrue();
        assertStockClientRoundTrip("AfterGarbage");
    }

    @Test
    void unknownRequestCodeIsAnsweredInBothHeaderTypesAndTheConnectionStaysOpen() throws Exception {
        try (Socket socket = connect()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            for (SerializeType type : List.of(SerializeType.JSON, SerializeType.ROCKETMQ, SerializeType.JSON)) {
                RemotingCommand request = RemotingCommand.createRequestCommand(9999, null);
                request.setSerializeTypeCurrentRPC(type);
                ByteBuffer frame = request.encode();
                socket.getOutputStream().write(frame.array(), 0, frame.limit());
                socket.getOutputStream().flush();

                byte[] body = new byte[in.readInt()];
                in.readFully(body);
                RemotingCommand response = RemotingCommand.decode(body);
                assertThat(response.isResponseType()).isTrue();
                assertThat(response.getOpaque()).isEqualTo(request.getOpaque());
                assertThat(response.getCode()).as(response.getRemark()).isEqualTo(ResponseCode.REQUEST_CODE_NOT_SUPPORTED);
                assertThat(response.getRemark()).contains("9999");
            }
        }
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), cluster.broker().port()), 5_000);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        return socket;
    }

    /** Writes {@code bytes} on a fresh connection and expects the broker to close it without answering. */
    private static void assertClosedAfter(String what, byte[] bytes) throws IOException {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            int read;
            try {
                read = in.read();
            } catch (SocketTimeoutException e) {
                throw new AssertionError(what + ": connection still open after " + READ_TIMEOUT_MILLIS + " ms", e);
            } catch (SocketException e) {
                // Reset: closed with unread input pending, which counts as closed.
                return;
            }
            assertThat(read).as(what + ": the broker must close the connection without answering").isEqualTo(-1);
        }
    }

    private static void assertStockClientRoundTrip(String topic) throws Exception {
        cluster.createTopic(topic, 1);
        List<String> sent = cluster.produce(topic, "T", 3);
        DefaultLitePullConsumer consumer = StockClients.litePullConsumer(cluster.namesrvAddr(), "cg_" + topic);
        try {
            Collection<MessageQueue> queues = consumer.fetchMessageQueues(topic);
            consumer.assign(queues);
            consumer.seek(queues.iterator().next(), 0);
            List<MessageExt> got = new ArrayList<>();
            Await.until("3 messages after the garbage", Duration.ofSeconds(30), () -> {
                got.addAll(consumer.poll(200));
                return got.size() >= 3;
            });
            assertThat(got).extracting(m -> new String(m.getBody(), UTF_8)).containsExactlyElementsOf(sent);
        } finally {
            StockClients.shutdownAll(consumer::shutdown);
        }
    }
}
