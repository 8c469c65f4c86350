package org.modmq.remoting.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.NumberInput;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufUtil;
import java.io.IOException;
import java.util.Map;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.LanguageCode;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.SerializeType;

/**
 * The JSON header (docs/protocol.md section 1.3): one UTF-8 object with keys {@code code, extFields, flag, language,
 * opaque, remark, serializeTypeCurrentRPC, version}, written in that (alphabetical) order; null
 * remark and empty extFields are omitted, as the stock client does.
 *
 * <p>Decoding is lenient like the stock parser: unknown keys ignored, any key order, numeric
 * extFields values become strings, {@code language} as a name or an ordinal, missing numbers are 0.
 *
 * <p>Stateless and thread-safe. Neither method retains or releases the buffers it is given.
 */
public final class JsonHeaderCodec {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private JsonHeaderCodec() {
    }

    /**
     * Writes the header of {@code command} at the writer index of {@code out}, byte for byte as Jackson's
     * generator would (strings escaped the same way, non-ASCII as UTF-8), but without a generator per
     * frame: every answer to a JSON client goes through here.
     */
    public static void encode(RemotingCommand command, ByteBuf out) {
        out.writeByte('{');
        ByteBufUtil.writeAscii(out, "\"code\":");
        writeInt(out, command.code());
        if (!command.extFields().isEmpty()) {
            ByteBufUtil.writeAscii(out, ",\"extFields\":{");
            boolean first = true;
            for (Map.Entry<String, String> field : command.extFields().entrySet()) {
                if (!first) {
                    out.writeByte(',');
                }
                first = false;
                writeString(out, field.getKey());
                out.writeByte(':');
                writeString(out, field.getValue());
            }
            out.writeByte('}');
        }
        ByteBufUtil.writeAscii(out, ",\"flag\":");
        writeInt(out, command.flag());
        ByteBufUtil.writeAscii(out, ",\"language\":");
        writeString(out, command.language().name());
        ByteBufUtil.writeAscii(out, ",\"opaque\":");
        writeInt(out, command.opaque());
        if (command.remark() != null) {
            ByteBufUtil.writeAscii(out, ",\"remark\":");
            writeString(out, command.remark());
        }
        ByteBufUtil.writeAscii(out, ",\"serializeTypeCurrentRPC\":\"JSON\",\"version\":");
        writeInt(out, command.version());
        out.writeByte('}');
    }

    private static void writeInt(ByteBuf out, int value) {
        ByteBufUtil.writeAscii(out, Integer.toString(value));
    }

    /**
     * A JSON string as Jackson writes it: quote, backslash, control characters and surrogates escaped,
     * the rest as UTF-8.
     */
    private static void writeString(ByteBuf out, String value) {
        out.writeByte('"');
        int run = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
                continue;
            }
            ByteBufUtil.writeUtf8(out, value, run, i);
            run = i + 1;
            out.writeByte('\\');
            switch (c) {
                case '"', '\\' -> out.writeByte(c);
                case '\n' -> out.writeByte('n');
                case '\r' -> out.writeByte('r');
                case '\t' -> out.writeByte('t');
                case '\b' -> out.writeByte('b');
                case '\f' -> out.writeByte('f');
                default -> out.writeByte('u').writeByte(HEX[c >> 12]).writeByte(HEX[(c >> 8) & 0xF])
                        .writeByte(HEX[(c >> 4) & 0xF]).writeByte(HEX[c & 0xF]);
            }
        }
        ByteBufUtil.writeUtf8(out, value, run, value.length());
        out.writeByte('"');
    }

    /**
     * Decodes a header that occupies exactly the readable bytes of {@code header}. Streams the tokens
     * (no tree): this runs for every request of a JSON client.
     *
     * @throws RemotingFrameException when it is not a JSON object
     */
    public static RemotingCommand decode(ByteBuf header) {
        try (JsonParser json = Json.mapper().createParser((java.io.InputStream) new ByteBufInputStream(header))) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new RemotingFrameException("JSON header is not an object");
            }
            RemotingCommand command = RemotingCommand.decoded().setSerializeType(SerializeType.JSON);
            int code = 0;
            int version = 0;
            int opaque = 0;
            int flag = 0;
            String language = null;
            for (String name = json.nextFieldName(); name != null; name = json.nextFieldName()) {
                JsonToken token = json.nextToken();
                switch (name) {
                    case "code" -> code = intOf(json, token);
                    case "version" -> version = intOf(json, token);
                    case "opaque" -> opaque = intOf(json, token);
                    case "flag" -> flag = intOf(json, token);
                    case "language" -> language = token == JsonToken.VALUE_NULL ? null : textOf(json, token);
                    case "remark" -> command.setRemark(token == JsonToken.VALUE_NULL ? null : textOf(json, token));
                    case "extFields" -> readExtFields(json, token, command);
                    default -> json.skipChildren();
                }
            }
            return command.setCode(code).setLanguage(LanguageCode.fromName(language)).setVersion(version)
                    .setOpaque(opaque).setFlag(flag);
        } catch (IOException e) {
            String reason = e instanceof com.fasterxml.jackson.core.JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
            throw new RemotingFrameException("undecodable JSON header: " + reason, e);
        }
    }

    private static void readExtFields(JsonParser json, JsonToken token, RemotingCommand command) throws IOException {
        if (token != JsonToken.START_OBJECT) {
            json.skipChildren();
            return;
        }
        for (String name = json.nextFieldName(); name != null; name = json.nextFieldName()) {
            JsonToken value = json.nextToken();
            if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                command.putExtField(name, json.readValueAsTree().toString());
            } else if (value != JsonToken.VALUE_NULL) {
                command.putExtField(name, json.getText());
            }
        }
    }

    /** Like a tree node's {@code asInt()}: numbers truncated, numeric text parsed, true is 1, else 0. */
    private static int intOf(JsonParser json, JsonToken token) throws IOException {
        return switch (token) {
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> json.getNumberValue().intValue();
            case VALUE_STRING -> NumberInput.parseAsInt(json.getText().trim(), 0);
            case VALUE_TRUE -> 1;
            case START_OBJECT, START_ARRAY -> {
                json.skipChildren();
                yield 0;
            }
            default -> 0;
        };
    }

    /** Like a tree node's {@code asText()}: a value's text, empty for a container. */
    private static String textOf(JsonParser json, JsonToken token) throws IOException {
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            json.skipChildren();
            return "";
        }
        return json.getText();
    }
}
