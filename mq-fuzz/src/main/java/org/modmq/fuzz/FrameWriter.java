package org.modmq.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes remoting frames byte by byte, independently of modmq's own encoder (a fuzzer that shared the
 * encoder under test would share its mistakes):
 *
 * <pre>
 *  int32 L = 4 + H + body length | int8 serialize type | int24 H | header (H bytes) | body
 *  JSON header:     {"code":..,"extFields":{..},"flag":..,"language":..,"opaque":..,"remark":..,
 *                    "serializeTypeCurrentRPC":"JSON","version":..}
 *  ROCKETMQ header: int16 code | int8 language | int16 version | int32 opaque | int32 flag |
 *                   int32 remark length | remark | int32 fields length | (int16 key length | key |
 *                   int32 value length | value)*
 * </pre>
 *
 * ROCKETMQ code and version are cut to int16 as the bytes demand. Stateless and thread-safe.
 */
public final class FrameWriter {

    private static final String[] LANGUAGES = {"JAVA", "CPP", "DOTNET", "PYTHON", "DELPHI", "ERLANG", "RUBY",
        "OTHER", "HTTP", "GO", "PHP", "OMS", "RUST", "NODE_JS"};
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private FrameWriter() {
    }

    /** @return the whole frame of {@code request} */
    public static byte[] frame(FuzzRequest request) {
        byte[] header = request.serializeType() == 0 ? jsonHeader(request) : rocketMqHeader(request);
        return frame(request.serializeType(), header, request.body());
    }

    /**
     * @param serializeType the type byte, any value
     * @param header        header bytes
     * @param body          body bytes
     * @return the frame with correct lengths
     */
    public static byte[] frame(int serializeType, byte[] header, byte[] body) {
        ByteBuffer frame = ByteBuffer.allocate(8 + header.length + body.length);
        frame.putInt(4 + header.length + body.length);
        frame.putInt((serializeType << 24) | (header.length & 0xFFFFFF));
        frame.put(header).put(body);
        return frame.array();
    }

    /** @return the JSON header of {@code request}, keys in the stock client's order */
    public static byte[] jsonHeader(FuzzRequest request) {
        StringBuilder json = new StringBuilder(128).append("{\"code\":").append(request.code());
        if (!request.extFields().isEmpty()) {
            json.append(",\"extFields\":{");
            boolean first = true;
            for (Map.Entry<String, String> field : request.extFields().entrySet()) {
                if (!first) {
                    json.append(',');
                }
                first = false;
                string(json, field.getKey()).append(':');
                string(json, field.getValue());
            }
            json.append('}');
        }
        json.append(",\"flag\":").append(request.flag()).append(",\"language\":");
        int language = request.language();
        if (language >= 0 && language < LANGUAGES.length) {
            string(json, LANGUAGES[language]);
        } else {
            json.append(language);
        }
        json.append(",\"opaque\":").append(request.opaque());
        if (request.remark() != null) {
            string(json.append(",\"remark\":"), request.remark());
        }
        json.append(",\"serializeTypeCurrentRPC\":\"JSON\",\"version\":").append(request.version()).append('}');
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** @return the ROCKETMQ binary header of {@code request} */
    public static byte[] rocketMqHeader(FuzzRequest request) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        writeShort(out, request.code());
        out.write(request.language());
        writeShort(out, request.version());
        writeInt(out, request.opaque());
        writeInt(out, request.flag());
        byte[] remark = request.remark() == null ? new byte[0] : request.remark().getBytes(StandardCharsets.UTF_8);
        writeInt(out, remark.length);
        out.writeBytes(remark);
        ByteArrayOutputStream fields = new ByteArrayOutputStream(64);
        for (Map.Entry<String, String> field : request.extFields().entrySet()) {
            byte[] key = field.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] value = field.getValue().getBytes(StandardCharsets.UTF_8);
            writeShort(fields, key.length);
            fields.writeBytes(key);
            writeInt(fields, value.length);
            fields.writeBytes(value);
        }
        writeInt(out, fields.size());
        out.writeBytes(fields.toByteArray());
        return out.toByteArray();
    }

    /** A JSON string literal: quote, backslash and control characters escaped, the rest as is. */
    static StringBuilder string(StringBuilder json, String value) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c)) {
                        json.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF])
                                .append(HEX[c & 0xF]);
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"');
    }

    private static void writeShort(ByteArrayOutputStream out, int value) {
        out.write(value >>> 8);
        out.write(value);
    }

    private static void writeInt(ByteArrayOutputStream out, int value) {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }
}
