package org.modmq.broker;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.modmq.api.message.MessageProperties;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;

/** Requests shaped as the stock 5.3.3 client sends them (docs/protocol.md sections 7.1 and 8.1), for tests. */
final class BrokerClient {

    static final Duration WAIT = Duration.ofSeconds(10);

    /** A decoded stored record (docs/store-format.md section 2). */
    record Record(byte[] raw, int queueId, long queueOffset, long physicalOffset, int reconsumeTimes, String body,
                  String topic, Map<String, String> properties) {
    }

    private final RemotingClient client;
    private final String address;

    BrokerClient(RemotingClient client, String address) {
        this.client = client;
        this.address = address;
    }

    RemotingCommand invoke(RemotingCommand request) {
        return client.invoke(address, request, WAIT).join();
    }

    static RemotingCommand sendV2(String topic, int queueId, String properties, byte[] body) {
        return RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).putExtField("a", "pg").putExtField("b", topic)
                .putExtField("c", "TBW102").putExtField("d", 4).putExtField("e", queueId).putExtField("f", 0)
                .putExtField("g", 1_700_000_000_000L).putExtField("h", 0).putExtField("i", properties)
                .putExtField("j", 0).putExtField("k", false).putExtField("m", false).putExtField("n", "broker-a")
                .withBody(body);
    }

    static String props(String... pairs) {
        Map<String, String> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return MessageProperties.encode(map);
    }

    static RemotingCommand pull(String group, String topic, int queueId, long offset, int sysFlag,
                                long commitOffset, long suspendMillis, String subscription) {
        RemotingCommand request = RemotingCommand.request(RequestCode.PULL_MESSAGE).putExtField("consumerGroup", group)
                .putExtField("topic", topic).putExtField("queueId", queueId).putExtField("queueOffset", offset)
                .putExtField("maxMsgNums", 32).putExtField("sysFlag", sysFlag)
                .putExtField("commitOffset", commitOffset).putExtField("suspendTimeoutMillis", suspendMillis)
                .putExtField("subVersion", 0).putExtField("expressionType", "TAG")
                .putExtField("maxMsgBytes", 262144).putExtField("bname", "broker-a");
        if (subscription != null) {
            request.putExtField("subscription", subscription);
        }
        return request;
    }

    /** Decodes back-to-back records, checking TOTALSIZE against the fields. */
    static List<Record> decode(byte[] body) {
        ByteBuffer in = ByteBuffer.wrap(body);
        List<Record> records = new ArrayList<>();
        while (in.hasRemaining()) {
            int start = in.position();
            int total = in.getInt(start);
            byte[] raw = new byte[total];
            in.get(raw);
            ByteBuffer r = ByteBuffer.wrap(raw);
            int queueId = r.getInt(12);
            long queueOffset = r.getLong(20);
            long physical = r.getLong(28);
            int reconsume = r.getInt(72);
            r.position(84);
            byte[] b = new byte[r.getInt()];
            r.get(b);
            byte[] t = new byte[r.get()];
            r.get(t);
            byte[] p = new byte[r.getShort()];
            r.get(p);
            if (r.position() != total) {
                throw new IllegalStateException("record of " + total + " bytes decodes to " + r.position());
            }
            records.add(new Record(raw, queueId, queueOffset, physical, reconsume,
                    new String(b, StandardCharsets.UTF_8), new String(t, StandardCharsets.UTF_8),
                    MessageProperties.decode(new String(p, StandardCharsets.UTF_8))));
        }
        return records;
    }

    /** The SEND_BATCH_MESSAGE body (docs/protocol.md section 5.6). */
    static byte[] batchBody(List<String> bodies, List<String> properties) {
        ByteBuffer out = ByteBuffer.allocate(64 * 1024);
        for (int i = 0; i < bodies.size(); i++) {
            byte[] b = bodies.get(i).getBytes(StandardCharsets.UTF_8);
            byte[] p = properties.get(i).getBytes(StandardCharsets.UTF_8);
            out.putInt(20 + b.length + 2 + p.length).putInt(0).putInt(0).putInt(0).putInt(b.length).put(b)
                    .putShort((short) p.length).put(p);
        }
        byte[] body = new byte[out.position()];
        out.flip().get(body);
        return body;
    }
}
