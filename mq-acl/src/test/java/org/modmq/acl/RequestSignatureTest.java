package org.modmq.acl;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.remoting.protocol.RemotingCommand;

/**
 * Signatures against vectors computed independently of this code (HmacSHA1 over the values of the
 * header fields sorted by name, then the body, Base64), the way {@code AclClientRPCHook} signs.
 */
class RequestSignatureTest {

    /** A SEND_MESSAGE_V2 header as a 5.3.3 producer flattens it, in the client's (hash) order. */
    static Map<String, String> sendV2Fields() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("bname", "broker-a");
        fields.put("b", "TopicA");
        fields.put("a", "pg_acl");
        fields.put("k", "false");
        fields.put("c", "TBW102");
        fields.put("d", "4");
        fields.put("e", "0");
        fields.put("f", "0");
        fields.put("g", "1764590000000");
        fields.put("h", "0");
        fields.put("i", "KEYSk1\u0001TAGSTagA");
        fields.put("j", "0");
        fields.put("m", "false");
        fields.put("AccessKey", "rocketmq2");
        return fields;
    }

    @Test
    void signsSortedValuesThenBodyWithHmacSha1() {
        String signature = RequestSignature.sign(sendV2Fields(), "hello".getBytes(StandardCharsets.UTF_8), "12345678");
        assertThat(signature).isEqualTo("MZT+HBkIN/ZvPIIQ4MRA7xuA3zc=");
    }

    @Test
    void leavesTheSignatureFieldOutSoResigningGivesTheSameValue() {
        Map<String, String> fields = sendV2Fields();
        fields.put(RequestSignature.SIGNATURE, "stale");
        assertThat(RequestSignature.sign(fields, "hello".getBytes(StandardCharsets.UTF_8), "12345678"))
                .isEqualTo("MZT+HBkIN/ZvPIIQ4MRA7xuA3zc=");
    }

    @Test
    void signsTheSecurityTokenAndTheUniqueKeyFlagOfCurrentClients() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("topic", "T");
        fields.put("_UNIQUE_KEY_QUERY", "true");
        fields.put("AccessKey", "RocketMQ");
        fields.put("SecurityToken", "tok");
        assertThat(RequestSignature.sign(fields, new byte[0], "secret123")).isEqualTo("wZ8IXji0jw8Uspt18BLDj9pmaOU=");
        byte[] old = RequestSignature.content(fields, new byte[0], true);
        assertThat(new String(old, StandardCharsets.UTF_8)).isEqualTo("RocketMQtokT");
    }

    @Test
    void comparesSignaturesExactly() {
        assertThat(RequestSignature.matches("abc=", "abc=")).isTrue();
        assertThat(RequestSignature.matches("abc=", "abd=")).isFalse();
        assertThat(RequestSignature.matches("abc=", null)).isFalse();
    }

    @Test
    void signerAddsAccessKeyAndSignatureOverHeaderAndBody() {
        RemotingCommand request = RemotingCommand.request(310, sendV2Fields())
                .withBody("hello".getBytes(StandardCharsets.UTF_8));
        request.putExtField("AccessKey", null);
        new RequestSigner("rocketmq2", "12345678").beforeSend("127.0.0.1:1", request);
        assertThat(request.extField("AccessKey")).isEqualTo("rocketmq2");
        assertThat(request.extField("Signature")).isEqualTo("MZT+HBkIN/ZvPIIQ4MRA7xuA3zc=");
    }

    @Test
    void signerReadsABufferBodyWithoutConsumingIt() {
        io.netty.buffer.ByteBuf body = io.netty.buffer.Unpooled.copiedBuffer("hello", StandardCharsets.UTF_8);
        RemotingCommand request = RemotingCommand.request(310, sendV2Fields()).withBody(body);
        try {
            new RequestSigner("rocketmq2", "12345678").beforeSend("127.0.0.1:1", request);
            assertThat(request.extField("Signature")).isEqualTo("MZT+HBkIN/ZvPIIQ4MRA7xuA3zc=");
            assertThat(body.readableBytes()).isEqualTo(5);
        } finally {
            request.releaseBody();
        }
    }
}
