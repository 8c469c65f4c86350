package org.modmq.remoting.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.NumberInput;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.LanguageCode;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.SerializeType;

/**
 * The JSON header (section 1.3): one UTF-8 object with keys {@code code, extFields, flag, language,
 * opaque, remark, serializeTypeCurrentRPC, version}, written in that (alphabetical) order; null
 * remark and empty extFields are omitted, as the stock client does.
 *
 * <p>Decoding is lenient like the stock parser: unknown keys ignored, any key order, numeric
 * extFields values become strings, {@code language} as a name or an ordinal, missing numbers are 0.
 *
 * <p>Stateless and thread-safe. Neither method retains or releases the buffers it is given.
 */
public final class JsonHeaderCodec {

    private JsonHeaderCodec() {
    }

    /** Writes the header of {@code command} at the writer index of {@code out}. */
    public static void encode(RemotingCommand command, ByteBuf out) {
        try (JsonGenerator json = Json.mapper().getFactory().createGenerator((java.io.OutputStream) new ByteBufOutputStream(out))) {
            json.writeStartObject();
            json.writeNumberField("code", command.code());
            if (!command.extFields().isEmpty()) {
                json.writeObjectFieldStart("extFields");
                for (Map.Entry<String, String> field : command.extFields().entrySet()) {
                    json.writeStringField(field.getKey(), field.getValue());
                }
                json.writeEndObject();
            }
            json.writeNumberField("flag", command.flag());
            json.writeStringField("language", command.language().name());
            json.writeNumberField("opaque", command.opaque());
            if (command.remark() != null) {
                json.writeStringField("remark", command.remark());
            }
            json.writeStringField("serializeTypeCurrentRPC", SerializeType.JSON.name());
            json.writeNumberField("version", command.version());
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a JSON header", e);
        }
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
