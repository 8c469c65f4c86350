package org.modmq.remoting.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
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
     * Decodes a header that occupies exactly the readable bytes of {@code header}.
     *
     * @throws RemotingFrameException when it is not a JSON object
     */
    public static RemotingCommand decode(ByteBuf header) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(new ByteBufInputStream(header));
        } catch (IOException e) {
            String reason = e instanceof com.fasterxml.jackson.core.JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
            throw new RemotingFrameException("undecodable JSON header: " + reason, e);
        }
        if (root == null || !root.isObject()) {
            throw new RemotingFrameException("JSON header is not an object");
        }
        RemotingCommand command = RemotingCommand.decoded()
                .setCode(root.path("code").asInt())
                .setLanguage(LanguageCode.fromName(root.path("language").asText(null)))
                .setVersion(root.path("version").asInt())
                .setOpaque(root.path("opaque").asInt())
                .setFlag(root.path("flag").asInt())
                .setSerializeType(SerializeType.JSON);
        JsonNode remark = root.get("remark");
        if (remark != null && !remark.isNull()) {
            command.setRemark(remark.asText());
        }
        JsonNode fields = root.get("extFields");
        if (fields != null && fields.isObject()) {
            for (Map.Entry<String, JsonNode> field : fields.properties()) {
                if (!field.getValue().isNull()) {
                    command.putExtField(field.getKey(), field.getValue().isValueNode()
                            ? field.getValue().asText() : field.getValue().toString());
                }
            }
        }
        return command;
    }
}
