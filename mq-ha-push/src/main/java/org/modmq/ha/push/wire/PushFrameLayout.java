package org.modmq.ha.push.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * The push protocol's frames, version 2. Every frame, in both directions, starts with one header;
 * integers are big-endian, offsets are CommitLog byte offsets, epochs are master epochs (0: none, the
 * classic static replication that keeps no epochs).
 *
 * <pre>
 *  header (13 bytes)
 *  0        1                          9                 13
 *  +--------+--------------------------+-----------------+-------------------------+
 *  | type   | offset (int64)           | length (int32)  | body (length bytes)     |
 *  +--------+--------------------------+-----------------+-------------------------+
 *
 *  an epoch entry (12 bytes), as in RocketMQ's handshake body: EpochEntry{epoch, startOffset}
 *  +--------------+--------------------------+
 *  | epoch int32  | startOffset int64        |
 *  +--------------+--------------------------+
 *
 *  exchange
 *  replica                                   master
 *     | HELLO ---------------------------------> |  (while replica: REFUSE NOT_MASTER at connect)
 *     | <------------------------- WELCOME|REFUSE |
 *     |   cut at truncateOffset                   |
 *     | <-------------------- DATA..., HEARTBEAT  |  (pushed as appended, within the window)
 *     | ACK... -------------------------------->  |  (once per read batch, and when idle)
 * </pre>
 *
 * <p><b>type 1 HELLO</b>, replica to master, the first frame. {@code offset} = the replica's max offset
 * (RocketMQ's slave report {@code maxOffset}). Body, 38 bytes plus the entries:
 * <pre>
 *  0            4         6                 14          18                26
 *  +------------+---------+-----------------+-----------+-----------------+
 *  | magic      | version | brokerId        | epoch     | minOffset       |
 *  | 0x4D515048 | int16 2 | int64, -1 =     | int32     | int64           |
 *  |            |         | unknown         |           |                 |
 *  +------------+---------+-----------------+-----------+-----------------+
 *  26            30          34           38
 *  +-------------+-----------+------------+-------------------------------+
 *  | checkLength | crc32     | entryCount | entries                       |
 *  | int32       | int32     | int32      | entryCount x 12 bytes         |
 *  |             |           | 0..1024    |                               |
 *  +-------------+-----------+------------+-------------------------------+
 * </pre>
 * {@code brokerId}: the replica's id (RocketMQ's handshake {@code brokerId}); {@code epoch}: the master
 * epoch the replica was told to follow in; {@code minOffset}: the first byte it holds; the CRC-32 covers
 * {@code [offset - checkLength, offset)} of its log (checked only when it keeps no epochs); the entries
 * are its newest epoch entries, oldest first. The magic and version sit where version 1 had them, so a
 * version-1 replica is refused with {@link Refusal#PROTOCOL}.
 *
 * <p><b>type 6 WELCOME</b>, master to replica, the answer to an accepted HELLO (RocketMQ's handshake
 * answer: {@code maxOffset}, {@code lastEpoch} and the epoch entries). {@code offset} = the master's max
 * offset. Body, 32 bytes plus the entries:
 * <pre>
 *  0           4                 12                20                28           32
 *  +-----------+-----------------+-----------------+-----------------+------------+-------------------
 *  | epoch     | confirmOffset   | truncateOffset  | startOffset     | entryCount | entries
 *  | int32     | int64           | int64           | int64           | int32      | entryCount x 12
 *  +-----------+-----------------+-----------------+-----------------+------------+-------------------
 * </pre>
 * {@code epoch}: the master's epoch; {@code truncateOffset}: the consistent point, where the replica cuts
 * its log before anything else (its max offset when nothing is cut); {@code startOffset}: the offset of
 * the first DATA byte, equal to {@code truncateOffset} unless the replica's log is or becomes empty (an
 * empty log starts at the master's min offset, a segment start); the entries are the master's newest,
 * oldest first.
 *
 * <p><b>type 2 DATA</b>, master to replica. {@code offset} = the offset of the first payload byte;
 * {@code length} = 20 + payload bytes. The payload is raw CommitLog bytes, free to cut a record, never
 * crossing a segment end nor an epoch boundary (RocketMQ's transfer header carries the same
 * {@code epoch}, {@code epochStartOffset} and {@code confirmOffset}):
 * <pre>
 *  0           4                     12                    20
 *  +-----------+---------------------+---------------------+--------------------------+
 *  | epoch     | epochStartOffset    | confirmOffset       | payload (length - 20)    |
 *  | int32     | int64               | int64               |                          |
 *  +-----------+---------------------+---------------------+--------------------------+
 * </pre>
 *
 * <p><b>type 3 ACK</b>, replica to master. {@code offset} = the replica's max offset after applying
 * frames; no body. Also the replica's heartbeat.
 *
 * <p><b>type 4 HEARTBEAT</b>, master to replica when idle or when the confirm offset rose.
 * {@code offset} = the master's max offset. Body, 12 bytes: {@code epoch} int32, {@code confirmOffset}
 * int64.
 *
 * <p><b>type 5 REFUSE</b>, master to replica, then the master closes. {@code offset} = the master's max
 * offset; body = reason code (int8, see {@link Refusal}) + UTF-8 detail.
 *
 * <p>Stateless; thread-safe. Every method returning a {@link ByteBuf} hands the caller a new buffer to
 * write (or release).
 */
public final class PushFrameLayout {

    public static final int HEADER_LENGTH = 13;
    public static final int OFFSET_POSITION = 1;
    public static final int LENGTH_POSITION = 9;

    public static final byte HELLO = 1;
    public static final byte DATA = 2;
    public static final byte ACK = 3;
    public static final byte HEARTBEAT = 4;
    public static final byte REFUSE = 5;
    public static final byte WELCOME = 6;

    public static final int MAGIC = 0x4D515048;
    public static final short VERSION = 2;
    /** Version 1: no epochs, no WELCOME; refused. */
    public static final short VERSION_1 = 1;

    public static final int EPOCH_ENTRY_LENGTH = 12;
    /** Most epoch entries a HELLO or WELCOME carries: a side sends its newest ones. */
    public static final int MAX_EPOCH_ENTRIES = 1024;

    /** HELLO body positions. */
    public static final int HELLO_MAGIC = 0;
    public static final int HELLO_VERSION = 4;
    public static final int HELLO_BROKER_ID = 6;
    public static final int HELLO_EPOCH = 14;
    public static final int HELLO_MIN_OFFSET = 18;
    public static final int HELLO_CHECK_LENGTH = 26;
    public static final int HELLO_CRC = 30;
    public static final int HELLO_ENTRY_COUNT = 34;
    public static final int HELLO_FIXED_LENGTH = 38;

    /** WELCOME body positions. */
    public static final int WELCOME_EPOCH = 0;
    public static final int WELCOME_CONFIRM = 4;
    public static final int WELCOME_TRUNCATE = 12;
    public static final int WELCOME_START = 20;
    public static final int WELCOME_ENTRY_COUNT = 28;
    public static final int WELCOME_FIXED_LENGTH = 32;

    /** DATA body positions. */
    public static final int DATA_EPOCH = 0;
    public static final int DATA_EPOCH_START = 4;
    public static final int DATA_CONFIRM = 12;
    public static final int DATA_PREFIX_LENGTH = 20;

    /** HEARTBEAT body positions. */
    public static final int HEARTBEAT_EPOCH = 0;
    public static final int HEARTBEAT_CONFIRM = 4;
    public static final int HEARTBEAT_BODY_LENGTH = 12;

    /** Bytes below its max offset a replica checks with CRC-32 in its hello. */
    public static final int CHECK_LENGTH = 4096;

    private PushFrameLayout() {
    }

    /** Whether {@code type} is a frame type of this protocol version. */
    public static boolean known(byte type) {
        return type >= HELLO && type <= WELCOME;
    }

    /**
     * Whether a body of {@code length} bytes is possible for {@code type}: none for ACK, exactly 12 for
     * HEARTBEAT, at least the fixed part for DATA, WELCOME and REFUSE, at least magic and version for HELLO.
     */
    public static boolean plausibleLength(byte type, int length) {
        return switch (type) {
            case ACK -> length == 0;
            case HEARTBEAT -> length == HEARTBEAT_BODY_LENGTH;
            case DATA -> length >= DATA_PREFIX_LENGTH;
            case WELCOME -> length >= WELCOME_FIXED_LENGTH;
            case REFUSE -> length >= 1;
            case HELLO -> length >= HELLO_VERSION + 2;
            default -> false;
        };
    }

    /** A frame header announcing {@code length} body bytes. */
    public static ByteBuf header(ByteBufAllocator allocator, byte type, long offset, int length) {
        return allocator.buffer(HEADER_LENGTH).writeByte(type).writeLong(offset).writeInt(length);
    }

    /** A whole ACK frame. */
    public static ByteBuf ack(ByteBufAllocator allocator, long replicaMaxOffset) {
        return header(allocator, ACK, replicaMaxOffset, 0);
    }

    /**
     * The header and the 20-byte prefix of a DATA frame whose {@code payloadLength} payload bytes the
     * caller writes next.
     */
    public static ByteBuf dataHeader(ByteBufAllocator allocator, long offset, int payloadLength, int epoch,
                                     long epochStartOffset, long confirmOffset) {
        return allocator.buffer(HEADER_LENGTH + DATA_PREFIX_LENGTH).writeByte(DATA).writeLong(offset)
                .writeInt(DATA_PREFIX_LENGTH + payloadLength).writeInt(epoch).writeLong(epochStartOffset)
                .writeLong(confirmOffset);
    }

    /** A whole HEARTBEAT frame. */
    public static ByteBuf heartbeat(ByteBufAllocator allocator, long masterMaxOffset, int epoch, long confirmOffset) {
        return header(allocator, HEARTBEAT, masterMaxOffset, HEARTBEAT_BODY_LENGTH).writeInt(epoch)
                .writeLong(confirmOffset);
    }

    /** A whole REFUSE frame. */
    public static ByteBuf refuse(ByteBufAllocator allocator, long masterMaxOffset, Refusal reason, String detail) {
        byte[] text = detail.getBytes(StandardCharsets.UTF_8);
        return header(allocator, REFUSE, masterMaxOffset, 1 + text.length).writeByte(reason.code()).writeBytes(text);
    }

    /** DATA: the epoch of the payload. */
    public static int dataEpoch(ByteBuf body) {
        return body.getInt(body.readerIndex() + DATA_EPOCH);
    }

    /** DATA: where the payload's epoch starts. */
    public static long dataEpochStart(ByteBuf body) {
        return body.getLong(body.readerIndex() + DATA_EPOCH_START);
    }

    /** DATA: the master's confirm offset. */
    public static long dataConfirm(ByteBuf body) {
        return body.getLong(body.readerIndex() + DATA_CONFIRM);
    }

    /** DATA: the payload, a slice of {@code body} (not retained: valid while the frame is). */
    public static ByteBuf dataPayload(ByteBuf body) {
        return body.slice(body.readerIndex() + DATA_PREFIX_LENGTH, body.readableBytes() - DATA_PREFIX_LENGTH);
    }

    /** HEARTBEAT: the master's epoch. */
    public static int heartbeatEpoch(ByteBuf body) {
        return body.getInt(body.readerIndex() + HEARTBEAT_EPOCH);
    }

    /** HEARTBEAT: the master's confirm offset. */
    public static long heartbeatConfirm(ByteBuf body) {
        return body.getLong(body.readerIndex() + HEARTBEAT_CONFIRM);
    }
}
