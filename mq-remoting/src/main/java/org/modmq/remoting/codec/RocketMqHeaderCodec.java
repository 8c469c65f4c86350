package org.modmq.remoting.codec;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.modmq.remoting.protocol.LanguageCode;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.SerializeType;

/**
 * The ROCKETMQ binary header (docs/protocol.md section 1.4). Big-endian.
 *
 * <pre>
 *  code int16 | language int8 | version int16 | opaque int32 | flag int32
 *  remark length int32 | remark bytes            (length 0 = null)
 *  extFields length int32                        (total bytes of the entries, 0 = none)
 *  entry*: key length int16 | key | value length int32 | value   (value length 0 = null/absent)
 * </pre>
 *
 * <p>Stateless and thread-safe. Neither method retains or releases the buffers it is given.
 */
public final class RocketMqHeaderCodec {

    private RocketMqHeaderCodec() {
    }

    /**
     * Writes the header of {@code command} at the writer index of {@code out}.
     *
     * @throws IllegalArgumentException when code or version do not fit in int16
     */
    public static void encode(RemotingCommand command, ByteBuf out) {
        out.writeShort(checkShort("code", command.code()));
        out.writeByte(command.language().code());
        out.writeShort(checkShort("version", command.version()));
        out.writeInt(command.opaque());
        out.writeInt(command.flag());
        String remark = command.remark();
        if (remark == null || remark.isEmpty()) {
            out.writeInt(0);
        } else {
            byte[] bytes = remark.getBytes(StandardCharsets.UTF_8);
            out.writeInt(bytes.length);
            out.writeBytes(bytes);
        }
        int lengthIndex = out.writerIndex();
        out.writeInt(0);
        for (Map.Entry<String, String> field : command.extFields().entrySet()) {
            byte[] key = field.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] value = field.getValue().getBytes(StandardCharsets.UTF_8);
            out.writeShort(checkShort("header field name length", key.length));
            out.writeBytes(key);
            out.writeInt(value.length);
            out.writeBytes(value);
        }
        out.setInt(lengthIndex, out.writerIndex() - lengthIndex - 4);
    }

    /**
     * Decodes a header that occupies exactly the readable bytes of {@code header}.
     *
     * @throws RemotingFrameException when a length runs past the header or bytes are left over
     */
    public static RemotingCommand decode(ByteBuf header) {
        try {
            RemotingCommand command = RemotingCommand.decoded()
                    .setCode(header.readShort())
                    .setLanguage(LanguageCode.fromCode(header.readByte()))
                    .setVersion(header.readShort())
                    .setOpaque(header.readInt())
                    .setFlag(header.readInt())
                    .setSerializeType(SerializeType.ROCKETMQ);
            command.setRemark(readString(header, header.readInt()));
            int fieldsLength = header.readInt();
            checkLength("extFields", fieldsLength, header);
            ByteBuf fields = header.readSlice(fieldsLength);
            while (fields.isReadable()) {
                String key = readString(fields, fields.readShort());
                String value = readString(fields, fields.readInt());
                if (key != null && value != null) {
                    command.putExtField(key, value);
                }
            }
            if (header.isReadable()) {
                throw new RemotingFrameException(header.readableBytes() + " bytes left over after the ROCKETMQ header");
            }
            return command;
        } catch (IndexOutOfBoundsException e) {
            throw new RemotingFrameException("truncated ROCKETMQ header", e);
        }
    }

    private static String readString(ByteBuf in, int length) {
        if (length == 0) {
            return null;
        }
        checkLength("string", length, in);
        String value = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return value;
    }

    private static void checkLength(String what, int length, ByteBuf in) {
        if (length < 0 || length > in.readableBytes()) {
            throw new RemotingFrameException("bad " + what + " length " + length + " in ROCKETMQ header ("
                    + in.readableBytes() + " bytes left)");
        }
    }

    private static int checkShort(String what, int value) {
        if (value < Short.MIN_VALUE || value > Short.MAX_VALUE) {
            throw new IllegalArgumentException(what + " " + value + " does not fit the ROCKETMQ header's int16; use JSON");
        }
        return value;
    }
}
