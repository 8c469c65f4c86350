package org.modmq.fuzz;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The fields of a received command that a fuzz run looks at. Immutable.
 *
 * @param code   response code (or request code of a server-initiated request)
 * @param opaque the request id it answers
 * @param flag   flag bits; bit 0 set for a response
 * @param remark remark or null
 * @param body   body bytes
 */
public record Reply(int code, int opaque, int flag, String remark, byte[] body) {

    /**
     * Reads a JSON header: {@code code}, {@code opaque}, {@code flag} and {@code remark}. Supplied by the
     * user of this module (a JSON library is not a dependency here).
     */
    @FunctionalInterface
    public interface JsonHeaderReader {
        /**
         * @param header the header bytes
         * @param body   the body bytes
         * @return the reply
         * @throws RuntimeException when the header is not a JSON object with those fields
         */
        Reply read(byte[] header, byte[] body);
    }

    /** @return whether this is a response (flag bit 0) */
    public boolean isResponse() {
        return (flag & FuzzRequest.FLAG_RESPONSE) != 0;
    }

    /**
     * Decodes one received frame's header.
     *
     * @param serializeType the type byte of the frame
     * @param header        header bytes
     * @param body          body bytes
     * @param json          reads JSON headers
     * @throws IllegalArgumentException when the header cannot be read
     */
    public static Reply decode(int serializeType, byte[] header, byte[] body, JsonHeaderReader json) {
        if (serializeType == 0) {
            return Objects.requireNonNull(json.read(header, body), "reply");
        }
        if (serializeType != 1) {
            throw new IllegalArgumentException("a reply of serialize type " + serializeType);
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(header);
            int code = in.getShort();
            in.get();
            in.getShort();
            int opaque = in.getInt();
            int flag = in.getInt();
            int remarkLength = in.getInt();
            String remark = null;
            if (remarkLength > 0) {
                byte[] text = new byte[remarkLength];
                in.get(text);
                remark = new String(text, StandardCharsets.UTF_8);
            }
            return new Reply(code, opaque, flag, remark, body);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("unreadable ROCKETMQ reply header " + Printable.hex(header, 64), e);
        }
    }
}
