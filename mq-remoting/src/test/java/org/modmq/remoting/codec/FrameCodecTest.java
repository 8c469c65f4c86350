package org.modmq.remoting.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.remoting.protocol.LanguageCode;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.SerializeType;
import org.modmq.testkit.NettyLeakCheck;

@ExtendWith(NettyLeakCheck.class)
class FrameCodecTest {

    /** Section 1.1: a ROCKETMQ-typed response with remark "ok" and one header field k=v. */
    private static final String EXAMPLE =
            "00000023" + "0100001f" + "0000" + "00" + "0000" + "00000004" + "00000001" + "00000002" + "6f6b"
                    + "00000008" + "0001" + "6b" + "00000001" + "76";

    private final EmbeddedChannel channel = new EmbeddedChannel(new RemotingFrameDecoder(1024), new RemotingCommandEncoder());

    @AfterEach
    void finish() {
        channel.finishAndReleaseAll();
    }

    @Test
    void decodesTheObservedRocketMqExample() {
        channel.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(EXAMPLE)));
        RemotingCommand command = channel.readInbound();
        assertThat(command.code()).isZero();
        assertThat(command.language()).isEqualTo(LanguageCode.JAVA);
        assertThat(command.version()).isZero();
        assertThat(command.opaque()).isEqualTo(4);
        assertThat(command.isResponse()).isTrue();
        assertThat(command.remark()).isEqualTo("ok");
        assertThat(command.extFields()).containsExactly(java.util.Map.entry("k", "v"));
        assertThat(command.body()).isEmpty();
        assertThat(command.serializeType()).isEqualTo(SerializeType.ROCKETMQ);
    }

    @Test
    void encodesTheObservedRocketMqExampleByteForByte() {
        RemotingCommand command = RemotingCommand.decoded().setOpaque(4).setFlag(1).setVersion(0).setRemark("ok")
                .putExtField("k", "v").setSerializeType(SerializeType.ROCKETMQ);
        assertThat(encode(command)).isEqualTo(EXAMPLE);
    }

    @Test
    void rocketMqHeaderTreatsZeroLengthAsNull() {
        RemotingCommand command = RemotingCommand.decoded().setCode(10).setRemark("").putExtField("empty", "")
                .putExtField("topic", "T").setSerializeType(SerializeType.ROCKETMQ);
        channel.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(encode(command))));
        RemotingCommand decoded = channel.readInbound();
        assertThat(decoded.remark()).isNull();
        assertThat(decoded.extFields()).containsOnlyKeys("topic");
    }

    @Test
    void rocketMqHeaderRefusesCodesBeyondInt16() {
        RemotingCommand command = RemotingCommand.request(200050).setSerializeType(SerializeType.ROCKETMQ);
        assertThatThrownBy(() -> RocketMqHeaderCodec.encode(command, Unpooled.buffer()))
                .hasMessageContaining("200050");
    }

    @Test
    void decodesTheObservedJsonRequest() {
        String header = "{\"code\":105,\"extFields\":{\"topic\":\"TopicTest\"},\"flag\":0,\"language\":\"JAVA\","
                + "\"opaque\":0,\"serializeTypeCurrentRPC\":\"JSON\",\"version\":479}";
        channel.writeInbound(jsonFrame(header, "body"));
        RemotingCommand command = channel.readInbound();
        assertThat(command.code()).isEqualTo(105);
        assertThat(command.extField("topic")).isEqualTo("TopicTest");
        assertThat(command.isResponse()).isFalse();
        assertThat(command.version()).isEqualTo(479);
        assertThat(command.language()).isEqualTo(LanguageCode.JAVA);
        assertThat(command.serializeType()).isEqualTo(SerializeType.JSON);
        assertThat(new String(command.body(), StandardCharsets.UTF_8)).isEqualTo("body");
    }

    @Test
    void jsonHeaderIsLenientLikeTheStockParser() {
        String header = "{\"version\":401,\"unknown\":[1,2],\"language\":9,\"extFields\":{\"queueId\":3,\"b\":true},\"code\":11,\"opaque\":7}";
        channel.writeInbound(jsonFrame(header, ""));
        RemotingCommand command = channel.readInbound();
        assertThat(command.language()).isEqualTo(LanguageCode.GO);
        assertThat(command.extFields()).containsEntry("queueId", "3").containsEntry("b", "true");
        assertThat(command.flag()).isZero();
    }

    @Test
    void jsonHeaderKeepsNestedExtFieldsAsJsonAndReadsNumbersFromText() {
        String header = "{code:'12',extFields:{nested:{\"x\":[1,2]},none:null,last:'a',last:'b',},opaque:7.9,"
                + "remark:null,\"flag\":\"1\",other:{\"deep\":{}}}";
        channel.writeInbound(jsonFrame(header, ""));
        RemotingCommand command = channel.readInbound();
        assertThat(command.code()).isEqualTo(12);
        assertThat(command.opaque()).isEqualTo(7);
        assertThat(command.isResponse()).isTrue();
        assertThat(command.remark()).isNull();
        assertThat(command.extFields()).containsEntry("nested", "{\"x\":[1,2]}").containsEntry("last", "b")
                .doesNotContainKey("none");
    }

    @Test
    void encodesJsonLikeTheObservedResponse() {
        RemotingCommand command = RemotingCommand.decoded().setOpaque(1).setFlag(1);
        String hex = encode(command);
        byte[] frame = ByteBufUtil.decodeHexDump(hex);
        String header = new String(frame, 8, frame.length - 8, StandardCharsets.UTF_8);
        assertThat(header).isEqualTo(
                "{\"code\":0,\"flag\":1,\"language\":\"JAVA\",\"opaque\":1,\"serializeTypeCurrentRPC\":\"JSON\",\"version\":479}");
        assertThat(hex.substring(8, 10)).isEqualTo("00");
    }

    @Test
    void writesJsonHeadersAsJacksonWould() throws Exception {
        RemotingCommand command = RemotingCommand.request(310).setOpaque(-5).setFlag(3)
                .setRemark("quote \" back \\ nl \n tab \t cr \r \u0001 \u001f bs \b ff \f é 中 \uD83D\uDE00 /")
                .putExtField("k\"1", "v\u0000").putExtField("topic", "T").putExtField("empty", "");
        ByteBuf ours = Unpooled.buffer();
        JsonHeaderCodec.encode(command, ours);
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        try (com.fasterxml.jackson.core.JsonGenerator json = org.modmq.remoting.protocol.Json.mapper().getFactory()
                .createGenerator(expected)) {
            json.writeStartObject();
            json.writeNumberField("code", command.code());
            json.writeObjectFieldStart("extFields");
            for (var field : command.extFields().entrySet()) {
                json.writeStringField(field.getKey(), field.getValue());
            }
            json.writeEndObject();
            json.writeNumberField("flag", command.flag());
            json.writeStringField("language", command.language().name());
            json.writeNumberField("opaque", command.opaque());
            json.writeStringField("remark", command.remark());
            json.writeStringField("serializeTypeCurrentRPC", "JSON");
            json.writeNumberField("version", command.version());
            json.writeEndObject();
        }
        try {
            assertThat(ours.toString(StandardCharsets.UTF_8)).isEqualTo(expected.toString(StandardCharsets.UTF_8));
            RemotingCommand back = JsonHeaderCodec.decode(ours);
            assertThat(back.remark()).isEqualTo(command.remark());
            assertThat(back.extFields()).isEqualTo(command.extFields());
        } finally {
            ours.release();
        }
    }

    @Test
    void reassemblesFramesSplitAcrossReads() {
        RemotingCommand command = RemotingCommand.request(10).putExtField("topic", "T").withBody(new byte[300]);
        byte[] frame = ByteBufUtil.decodeHexDump(encode(command));
        for (int i = 0; i < frame.length; i += 7) {
            channel.writeInbound(Unpooled.wrappedBuffer(frame, i, Math.min(7, frame.length - i)));
        }
        RemotingCommand decoded = channel.readInbound();
        assertThat(decoded.opaque()).isEqualTo(command.opaque());
        assertThat(decoded.body()).hasSize(300);
    }

    @Test
    void rejectsAnOversizedLengthBeforeTheBodyArrives() {
        ByteBuf length = Unpooled.buffer().writeInt(1025);
        assertThatThrownBy(() -> channel.writeInbound(length))
                .isInstanceOf(DecoderException.class).hasMessageContaining("bad frame length 1025");
    }

    @Test
    void rejectsAHeaderLongerThanTheFrame() {
        ByteBuf frame = Unpooled.buffer().writeInt(8).writeInt(5).writeInt(0);
        assertThatThrownBy(() -> channel.writeInbound(frame)).hasMessageContaining("header length 5 exceeds");
    }

    @Test
    void rejectsAnUnknownSerializeTypeAndDiscardsWhatFollows() {
        ByteBuf frame = Unpooled.buffer().writeInt(4).writeInt(0x02000000);
        assertThatThrownBy(() -> channel.writeInbound(frame)).hasMessageContaining("unknown serialize type 2");
        channel.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(EXAMPLE)));
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void rejectsATruncatedRocketMqHeader() {
        ByteBuf frame = Unpooled.buffer().writeInt(4 + 3).writeInt(0x01000003).writeBytes(new byte[3]);
        assertThatThrownBy(() -> channel.writeInbound(frame)).hasMessageContaining("truncated ROCKETMQ header");
    }

    @Test
    void rejectsAJsonHeaderThatIsNotAnObject() {
        assertThatThrownBy(() -> channel.writeInbound(jsonFrame("[1]", ""))).hasMessageContaining("not an object");
    }

    @Test
    void writesAByteBufBodyWithoutCopyingAndReleasesIt() {
        ByteBuf body = Unpooled.directBuffer().writeBytes("stored".getBytes(StandardCharsets.UTF_8));
        RemotingCommand command = RemotingCommand.request(11).withBody(body);
        channel.writeOutbound(command);
        ByteBuf header = channel.readOutbound();
        ByteBuf sent = channel.readOutbound();
        try {
            assertThat(sent).isSameAs(body);
            assertThat(header.getInt(0)).isEqualTo(header.readableBytes() - 4 + 6);
            assertThat(command.bodyBuf()).isNull();
        } finally {
            header.release();
            sent.release();
        }
        assertThat(body.refCnt()).isZero();
    }

    private String encode(RemotingCommand command) {
        channel.writeOutbound(command);
        ByteBuf out = channel.readOutbound();
        try {
            return ByteBufUtil.hexDump(out);
        } finally {
            out.release();
        }
    }

    private static ByteBuf jsonFrame(String header, String body) {
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        return Unpooled.buffer().writeInt(4 + h.length + b.length).writeInt(h.length).writeBytes(h).writeBytes(b);
    }
}
