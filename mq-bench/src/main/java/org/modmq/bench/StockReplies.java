package org.modmq.bench;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.modmq.fuzz.FrameWriter;
import org.modmq.fuzz.FuzzRequest;
import org.modmq.fuzz.RawConnection;
import org.modmq.fuzz.Reply;

/**
 * What {@link FuzzCommand} needs from the stock client's classes: its decoder for answers (either header
 * type), and a broker's or name server's stored state read over a connection of its own. Stateless.
 */
final class StockReplies {

    private StockReplies() {
    }

    /** Decodes a JSON header with the stock client's own {@code RemotingCommand.decode}. */
    static Reply jsonReply(byte[] header, byte[] body) {
        ByteBuffer frame = ByteBuffer.allocate(4 + header.length + body.length);
        frame.putInt(header.length).put(header).put(body).flip();
        try {
            RemotingCommand command = RemotingCommand.decode(frame);
            return new Reply(command.getCode(), command.getOpaque(), command.getFlag(), command.getRemark(), body);
        } catch (RemotingCommandException e) {
            throw new IllegalArgumentException("undecodable answer header: " + e.getMessage(), e);
        }
    }

    /** A broker's CommitLog end (from its runtime info) and its topic table. */
    static Object brokerState(String host, int port, int timeoutMillis) {
        Map<Integer, byte[]> bodies = ask(host, port, timeoutMillis, 28, 21);
        JSONObject runtime = JSON.parseObject(new String(bodies.get(28), java.nio.charset.StandardCharsets.UTF_8));
        JSONObject topics = JSON.parseObject(new String(bodies.get(21), java.nio.charset.StandardCharsets.UTF_8));
        return List.of(String.valueOf(runtime.getJSONObject("table").get("commitLogMaxOffset")),
                String.valueOf(topics.get("topicConfigTable")));
    }

    /** A name server's clusters and topic list. */
    static Object namesrvState(String host, int port, int timeoutMillis) {
        Map<Integer, byte[]> bodies = ask(host, port, timeoutMillis, 106, 206);
        return List.of(JSON.parseObject(new String(bodies.get(106), java.nio.charset.StandardCharsets.UTF_8)),
                JSON.parseObject(new String(bodies.get(206), java.nio.charset.StandardCharsets.UTF_8)));
    }

    /** Sends one well-formed request per code on a fresh connection and returns the bodies of the answers. */
    private static Map<Integer, byte[]> ask(String host, int port, int timeoutMillis, int... codes) {
        Map<Integer, byte[]> bodies = new java.util.HashMap<>();
        try (RawConnection connection = RawConnection.open(host, port, timeoutMillis)) {
            for (int code : codes) {
                connection.send(FrameWriter.frame(FuzzRequest.of(code, code, Map.of(), new byte[0])));
                long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
                while (!bodies.containsKey(code)) {
                    RawConnection.Received received = connection.read(deadline);
                    if (!(received instanceof RawConnection.Frame frame)) {
                        throw new IllegalStateException("no answer to code " + code + " from " + host + ":" + port
                                + ": " + received);
                    }
                    Reply reply = Reply.decode(frame.serializeType(), frame.header(), frame.body(),
                            StockReplies::jsonReply);
                    if (reply.isResponse() && reply.opaque() == code) {
                        bodies.put(code, reply.body());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bodies;
    }
}
