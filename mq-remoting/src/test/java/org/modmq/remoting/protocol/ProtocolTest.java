package org.modmq.remoting.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ProtocolTest {

    /** A body shape as bound by Jackson; public so that Jackson may reflect on it. */
    public record QueueData(String brokerName, int perm, int readQueueNums, int writeQueueNums) {
    }

    /** A body with an integer-keyed map. */
    public record BrokerData(String brokerName, Map<Long, String> brokerAddrs) {
    }

    @Test
    void responseCopiesOpaqueAndTypeAndSetsTheFlag() {
        RemotingCommand request = RemotingCommand.request(RequestCode.HEART_BEAT).setSerializeType(SerializeType.ROCKETMQ);
        RemotingCommand next = RemotingCommand.request(RequestCode.HEART_BEAT);
        RemotingCommand response = RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
        assertThat(next.opaque()).isNotEqualTo(request.opaque());
        assertThat(response.opaque()).isEqualTo(request.opaque());
        assertThat(response.isResponse()).isTrue();
        assertThat(response.isOneway()).isFalse();
        assertThat(response.serializeType()).isEqualTo(SerializeType.ROCKETMQ);
        assertThat(response.version()).isEqualTo(479);
    }

    @Test
    void putExtFieldWritesValuesAsRocketMqDoes() {
        RemotingCommand command = RemotingCommand.request(10).putExtField("queueId", 3).putExtField("flag", true)
                .putExtField("lang", LanguageCode.JAVA).putExtField("gone", "x").putExtField("gone", null);
        assertThat(command.extFields()).containsExactly(Map.entry("queueId", "3"), Map.entry("flag", "true"),
                Map.entry("lang", "JAVA"));
    }

    @Test
    void headerFieldsAreTypedAndNameTheFieldWhenMissingOrMalformed() {
        HeaderFields fields = RemotingCommand.request(10, Map.of("topic", "T", "queueId", "3", "order", "TRUE",
                "offset", "12345678901", "bad", "x1")).headers();
        assertThat(fields.requireString("topic")).isEqualTo("T");
        assertThat(fields.requireInt("queueId")).isEqualTo(3);
        assertThat(fields.requireLong("offset")).isEqualTo(12345678901L);
        assertThat(fields.optionalBoolean("order", false)).isTrue();
        assertThat(fields.optionalInt("sysFlag", 7)).isEqualTo(7);
        assertThat(fields.optionalString("tags", null)).isNull();
        assertThatThrownBy(() -> fields.requireString("group"))
                .isInstanceOfSatisfying(HeaderFieldException.class, e -> {
                    assertThat(e.responseCode()).isEqualTo(ResponseCode.SYSTEM_ERROR);
                    assertThat(e.field()).isEqualTo("group");
                })
                .hasMessage("the custom header field 'group' is missing");
        assertThatThrownBy(() -> fields.requireInt("bad"))
                .hasMessage("the custom header field 'bad' is malformed: 'x1' is not an int");
        assertThatThrownBy(() -> fields.optionalBoolean("topic", false)).hasMessageContaining("'topic' is malformed");
        assertThatThrownBy(() -> fields.requireEnum("topic", LanguageCode.class)).hasMessageContaining("one of");
    }

    @Test
    void responseCodeNamesAreRocketMqs() {
        assertThat(ResponseCode.name(3)).isEqualTo("REQUEST_CODE_NOT_SUPPORTED");
        assertThat(ResponseCode.name(215)).isEqualTo("FLOW_CONTROL");
        assertThat(ResponseCode.name(-1006)).isEqualTo("RPC_TIME_OUT");
        assertThat(ResponseCode.name(99999)).isEqualTo("UNKNOWN(99999)");
        assertThat(ResponseCode.names()).hasSizeGreaterThan(60);
    }

    @Test
    void languageCodesDecodeFromNamesAndOrdinals() {
        assertThat(LanguageCode.fromName("GO")).isEqualTo(LanguageCode.GO);
        assertThat(LanguageCode.fromName("12")).isEqualTo(LanguageCode.RUST);
        assertThat(LanguageCode.fromName("COBOL")).isEqualTo(LanguageCode.OTHER);
        assertThat(LanguageCode.fromCode(13)).isEqualTo(LanguageCode.NODE_JS);
    }

    @Test
    void jsonWritesSortedStandardJsonWithoutNulls() {
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("z", 1);
        body.put("a", null);
        body.put("m", Map.of(0L, "addr"));
        assertThat(new String(Json.encode(body), StandardCharsets.UTF_8)).isEqualTo("{\"m\":{\"0\":\"addr\"},\"z\":1}");
        assertThat(new String(Json.encode(new QueueData("b", 6, 4, 4)), StandardCharsets.UTF_8))
                .isEqualTo("{\"brokerName\":\"b\",\"perm\":6,\"readQueueNums\":4,\"writeQueueNums\":4}");
    }

    @Test
    void jsonReadsFastjsonOutputLeniently() {
        byte[] fastjson = "{\"brokerAddrs\":{0:\"10.0.0.1:10911\",1:\"10.0.0.2:10911\"},\"brokerName\":\"a\",\"cluster\":\"c\"}"
                .getBytes(StandardCharsets.UTF_8);
        BrokerData data = Json.decode(fastjson, BrokerData.class);
        assertThat(data.brokerAddrs()).containsEntry(0L, "10.0.0.1:10911").containsEntry(1L, "10.0.0.2:10911");
        List<QueueData> list = Json.decode("[{\"brokerName\":\"b\",\"perm\":6,\"extra\":{}}]".getBytes(StandardCharsets.UTF_8),
                new TypeReference<List<QueueData>>() { });
        assertThat(list).containsExactly(new QueueData("b", 6, 0, 0));
    }

    @Test
    void jsonRejectsBadBodiesWithAResponseCode() {
        assertThatThrownBy(() -> Json.decode("{".getBytes(StandardCharsets.UTF_8), QueueData.class))
                .isInstanceOfSatisfying(JsonBodyException.class,
                        e -> assertThat(e.responseCode()).isEqualTo(ResponseCode.SYSTEM_ERROR))
                .hasMessageContaining("not a valid QueueData");
        assertThatThrownBy(() -> Json.decode(new byte[0], QueueData.class)).hasMessage("the request body is missing");
    }

    @Test
    void jsonRefusesTheNullLiteral() {
        assertThatThrownBy(() -> Json.decode("null", QueueData.class)).isInstanceOf(JsonBodyException.class)
                .hasMessage("the body is not a valid QueueData: it is null");
    }

    @Test
    void jsonTakesMissingPropertiesFromTheDefaults() {
        QueueData defaults = new QueueData("?", 6, 16, 16);
        QueueData decoded = Json.decodeWithDefaults("{\"brokerName\":\"b\",\"readQueueNums\":null,\"writeQueueNums\":2}"
                .getBytes(StandardCharsets.UTF_8), defaults, QueueData.class);
        assertThat(decoded).isEqualTo(new QueueData("b", 6, 16, 2));
        assertThatThrownBy(() -> Json.decodeWithDefaults("[1]".getBytes(StandardCharsets.UTF_8), defaults, QueueData.class))
                .isInstanceOf(JsonBodyException.class).hasMessageContaining("expected a JSON object");
    }

    @Test
    void jsonWritesBareIntegerKeysForOldClientsOnlyOutsideStrings() {
        BrokerData data = new BrokerData("{\"0\":x}", new TreeMap<>(Map.of(0L, "a:1", 1L, "b:1")));
        String bare = new String(Json.encodeWithBareNumericKeys(data), StandardCharsets.UTF_8);
        assertThat(bare).isEqualTo("{\"brokerAddrs\":{0:\"a:1\",1:\"b:1\"},\"brokerName\":\"{\\\"0\\\":x}\"}");
        assertThat(Json.decode(bare, BrokerData.class)).isEqualTo(data);
    }
}
