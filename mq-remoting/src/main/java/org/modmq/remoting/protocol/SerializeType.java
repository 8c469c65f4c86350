package org.modmq.remoting.protocol;

/**
 * How a command's header is serialized: the high byte of the frame's header-length word.
 * Bodies are opaque bytes and are not affected.
 */
public enum SerializeType {
    /** UTF-8 JSON object header (type byte 0); the stock client's default. */
    JSON(0),
    /** Compact binary header (type byte 1); codes and versions limited to int16. */
    ROCKETMQ(1);

    private final byte code;

    SerializeType(int code) {
        this.code = (byte) code;
    }

    /** @return the type byte written in bits 31..24 of the header-length word */
    public byte code() {
        return code;
    }

    /**
     * @param code the type byte of a received frame
     * @return the type, or {@code null} when the byte names no known type
     */
    public static SerializeType fromCode(int code) {
        if (code == 0) {
            return JSON;
        }
        if (code == 1) {
            return ROCKETMQ;
        }
        return null;
    }
}
