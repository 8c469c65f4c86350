package org.modmq.ha.push.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * The push protocol's frames. Every frame, in both directions, has one header; integers are big-endian.
 *
 * <pre>
 *  0        1                          9                 13
 *  +--------+--------------------------+-----------------+-------------------------+
 *  | type   | offset (int64)           | length (int32)  | body (length bytes)     |
 *  +--------+--------------------------+-----------------+-------------------------+
 *
 *  type 1 HELLO      replica -> master, first frame. offset = the replica's CommitLog max offset
 *                    (next byte it needs). body (14 bytes):
 *                      +--------------+-------------+-------------------+---------------+
 *                      | magic int32  | version i16 | checkLength int32 | crc32 int32   |
 *                      | 0x4D515048   | 1           | bytes checked     | of those bytes|
 *                      +--------------+-------------+-------------------+---------------+
 *                    the CRC-32 covers [offset - checkLength, offset) of the replica's log.
 *  type 2 DATA       master -> replica. offset = CommitLog offset of the first body byte; body = raw
 *                    CommitLog bytes, never crossing a segment end, free to cut a record.
 *  type 3 ACK        replica -> master. offset = the replica's max offset after applying frames;
 *                    length 0. Also sent as the replica's heartbeat.
 *  type 4 HEARTBEAT  master -> replica when idle. offset = the master's max offset; length 0.
 *  type 5 REFUSE     master -> replica, then the master closes. offset = the master's max offset;
 *                    body = reason code (int8, see {@link Refusal}) + UTF-8 detail.
 * </pre>
 *
 * <p>Stateless; thread-safe.
 */
public final class PushFrameLayout {

    public static final int HEADER_LENGTH = 13;
    public static final int LENGTH_POSITION = 9;

    public static final byte HELLO = 1;
    public static final byte DATA = 2;
    public static final byte ACK = 3;
    public static final byte HEARTBEAT = 4;
    public static final byte REFUSE = 5;

    public static final int MAGIC = 0x4D515048;
    public static final short VERSION = 1;
    public static final int HELLO_BODY_LENGTH = 14;
    /** Bytes below its max offset a replica checks with CRC-32 in its hello. */
    public static final int CHECK_LENGTH = 4096;

    private PushFrameLayout() {
    }

    /** Whether {@code type} is a frame type of this protocol version. */
    public static boolean known(byte type) {
        return type >= HELLO && type <= REFUSE;
    }

    /** A frame header announcing {@code length} body bytes; the caller owns the buffer. */
    public static ByteBuf header(ByteBufAllocator allocator, byte type, long offset, int length) {
        return allocator.buffer(HEADER_LENGTH).writeByte(type).writeLong(offset).writeInt(length);
    }

    /** A whole frame without body (ACK, HEARTBEAT); the caller owns the buffer. */
    public static ByteBuf empty(ByteBufAllocator allocator, byte type, long offset) {
        return header(allocator, type, offset, 0);
    }

    /** A whole HELLO frame; the caller owns the buffer. */
    public static ByteBuf hello(ByteBufAllocator allocator, long maxOffset, int checkLength, int crc) {
        return header(allocator, HELLO, maxOffset, HELLO_BODY_LENGTH).writeInt(MAGIC).writeShort(VERSION)
                .writeInt(checkLength).writeInt(crc);
    }

    /** A whole REFUSE frame; the caller owns the buffer. */
    public static ByteBuf refuse(ByteBufAllocator allocator, long masterMaxOffset, Refusal reason, String detail) {
        byte[] text = detail.getBytes(StandardCharsets.UTF_8);
        return header(allocator, REFUSE, masterMaxOffset, 1 + text.length).writeByte(reason.code()).writeBytes(text);
    }
}
