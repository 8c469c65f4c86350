package org.modmq.fuzz;

/**
 * What the framing rules alone say about the first frame of a byte string: whether it is complete,
 * how many bytes it still lacks, or why any receiver must refuse it (a length out of range, an unknown
 * serialize type, a header longer than the frame). Whether its header decodes is not judged here.
 * Immutable.
 *
 * @param kind    the verdict
 * @param missing bytes the first frame still lacks ({@link Kind#INCOMPLETE}), else 0
 * @param end     where the first frame ends ({@link Kind#COMPLETE}), else -1
 */
public record FrameShape(Kind kind, long missing, int end) {

    /** The largest frame length a RocketMQ-protocol server accepts: 16 MiB. */
    public static final int MAX_FRAME_LENGTH = 16 * 1024 * 1024;

    /** The verdicts. */
    public enum Kind {
        /** Length, type and header length are acceptable and every byte of the frame is there. */
        COMPLETE,
        /** Acceptable so far, but bytes are missing. */
        INCOMPLETE,
        /** The length field is below 4 or above the maximum. */
        BAD_LENGTH,
        /** The serialize-type byte is neither 0 nor 1. */
        BAD_TYPE,
        /** The header length exceeds the frame. */
        BAD_HEADER_LENGTH;

        /** @return whether every receiver must close the connection for it */
        public boolean broken() {
            return this == BAD_LENGTH || this == BAD_TYPE || this == BAD_HEADER_LENGTH;
        }
    }

    /** Judges the first frame of {@code bytes} against {@link #MAX_FRAME_LENGTH}. */
    public static FrameShape of(byte[] bytes) {
        if (bytes.length < 4) {
            return new FrameShape(Kind.INCOMPLETE, 4 - bytes.length, -1);
        }
        int length = readInt(bytes, 0);
        if (length < 4 || length > MAX_FRAME_LENGTH) {
            return new FrameShape(Kind.BAD_LENGTH, 0, -1);
        }
        if (bytes.length < 8) {
            // The type and header length are not there yet: a receiver waits for the whole frame.
            return new FrameShape(Kind.INCOMPLETE, 4L + length - bytes.length, -1);
        }
        if (bytes.length < 4L + length) {
            return new FrameShape(Kind.INCOMPLETE, 4L + length - bytes.length, -1);
        }
        int word = readInt(bytes, 4);
        int type = word >>> 24;
        if (type != 0 && type != 1) {
            return new FrameShape(Kind.BAD_TYPE, 0, -1);
        }
        if ((word & 0xFFFFFF) > length - 4) {
            return new FrameShape(Kind.BAD_HEADER_LENGTH, 0, -1);
        }
        return new FrameShape(Kind.COMPLETE, 0, 4 + length);
    }

    static int readInt(byte[] bytes, int at) {
        return ((bytes[at] & 0xFF) << 24) | ((bytes[at + 1] & 0xFF) << 16) | ((bytes[at + 2] & 0xFF) << 8)
                | (bytes[at + 3] & 0xFF);
    }
}
