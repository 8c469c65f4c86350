package org.modmq.remoting.codec;

/**
 * The remoting frame (docs/protocol.md section 1.1). All integers big-endian.
 *
 * <pre>
 *  0               4               8                   8+H              4+L
 *  +---------------+---+-----------+-------------------+-----------------+
 *  | L (int32)     | T | H (int24) | header (H bytes)  | body (L-4-H)    |
 *  +---------------+---+-----------+-------------------+-----------------+
 *  L = length of everything after the L field = 4 + H + body length
 *  T = serialize type: 0 JSON, 1 ROCKETMQ   (bits 31..24 of the header-length word)
 * </pre>
 */
public final class RemotingFrameLayout {

    /** Size of the {@code L} field. */
    public static final int LENGTH_FIELD_SIZE = 4;
    /** Size of the header-length word. */
    public static final int HEADER_LENGTH_WORD_SIZE = 4;
    /** Default maximum of {@code L}: 16 MiB, as the stock client and server. */
    public static final int DEFAULT_MAX_FRAME_LENGTH = 16 * 1024 * 1024;
    /** Largest header length the 24-bit field can express. */
    public static final int MAX_HEADER_LENGTH = 0xFFFFFF;

    private RemotingFrameLayout() {
    }

    /**
     * @param word the header-length word
     * @return the serialize-type byte (bits 31..24)
     */
    public static int serializeTypeOf(int word) {
        return (word >>> 24) & 0xFF;
    }

    /**
     * @param word the header-length word
     * @return the header length {@code H} (bits 23..0)
     */
    public static int headerLengthOf(int word) {
        return word & MAX_HEADER_LENGTH;
    }

    /**
     * @param serializeType the type byte
     * @param headerLength {@code H}
     * @return the header-length word
     */
    public static int headerLengthWord(int serializeType, int headerLength) {
        return (serializeType << 24) | (headerLength & MAX_HEADER_LENGTH);
    }
}
