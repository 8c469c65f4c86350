package org.modmq.broker.data;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;

/**
 * Decodes the body of SEND_BATCH_MESSAGE (docs/protocol.md section 5.6), a concatenation of records:
 *
 * <pre>
 * +-----------+-----------+---------+------+----------+------+-----------+------------+
 * | TOTALSIZE | MAGICCODE | BODYCRC | FLAG | BODY len | BODY | PROPS len | PROPERTIES |
 * | int32     | int32 (0) | int32   | int32| int32    | n    | int16     | p (UTF-8)  |
 * +-----------+-----------+---------+------+----------+------+-----------+------------+
 * </pre>
 * All big-endian. Stateless.
 */
final class BatchBodyDecoder {

    /** One message of a batch: its flag, body and own properties string. */
    record Entry(int flag, byte[] body, String properties) {
    }

    private BatchBodyDecoder() {
    }

    /** @throws ResponseCodeException (MESSAGE_ILLEGAL) when the body is not a well-formed batch */
    static List<Entry> decode(byte[] batch) {
        ByteBuffer in = ByteBuffer.wrap(batch);
        List<Entry> entries = new ArrayList<>();
        try {
            while (in.hasRemaining()) {
                int start = in.position();
                int totalSize = in.getInt();
                in.getInt();
                in.getInt();
                int flag = in.getInt();
                int bodyLength = in.getInt();
                if (bodyLength < 0 || bodyLength > in.remaining()) {
                    throw illegal("message " + entries.size() + " declares a body of " + bodyLength + " bytes");
                }
                byte[] body = new byte[bodyLength];
                in.get(body);
                int propertiesLength = Short.toUnsignedInt(in.getShort());
                byte[] properties = new byte[propertiesLength];
                in.get(properties);
                if (in.position() - start != totalSize) {
                    throw illegal("message " + entries.size() + " has TOTALSIZE " + totalSize + " but "
                            + (in.position() - start) + " bytes");
                }
                entries.add(new Entry(flag, body, new String(properties, StandardCharsets.UTF_8)));
            }
        } catch (BufferUnderflowException e) {
            throw illegal("the batch body ends inside message " + entries.size());
        }
        if (entries.isEmpty()) {
            throw illegal("the batch body holds no message");
        }
        return entries;
    }

    private static ResponseCodeException illegal(String why) {
        return new ResponseCodeException(ResponseCode.MESSAGE_ILLEGAL, "bad batch body: " + why);
    }
}
