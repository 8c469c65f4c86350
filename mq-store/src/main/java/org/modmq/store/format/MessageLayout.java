package org.modmq.store.format;

import io.netty.buffer.ByteBuf;
import org.modmq.api.message.MessageSysFlag;

/**
 * Byte layout of one stored message record in the CommitLog (RocketMQ's format), shown for IPv4 hosts
 * and a v1 (1-byte) topic length. Every integer is big-endian.
 *
 * <pre>
 *  0       4       8       12      16      20              28              36
 *  +-------+-------+-------+-------+-------+---------------+---------------+
 *  |TOTAL  |MAGIC  |BODY   |QUEUE  |FLAG   | QUEUEOFFSET   |PHYSICALOFFSET |
 *  |SIZE   |CODE   |CRC    |ID     |       |               |               |
 *  +-------+-------+-------+-------+-------+---------------+---------------+
 *  36      40              48              56              64
 *  +-------+---------------+---------------+---------------+---------------+
 *  |SYSFLAG|BORNTIMESTAMP  |BORNHOST       |STORETIMESTAMP |STOREHOST      |
 *  |       |               |ip4 + port     |               |ip4 + port     |
 *  +-------+---------------+---------------+---------------+---------------+
 *  72      76              84
 *  +-------+---------------+-------+------...+--+-----...+----+--------...+
 *  |RECON- |PREPARED TRANS-|BODY   | BODY    |T | TOPIC  |PROP| PROPERTIES |
 *  |SUME   |ACTION OFFSET  |LENGTH |         |L |        |LEN |            |
 *  +-------+---------------+-------+------...+--+-----...+----+--------...+
 * </pre>
 *
 * BORNHOST is 20 bytes (16-byte IPv6 + port) when SYSFLAG has {@link MessageSysFlag#BORNHOST_V6},
 * STOREHOST likewise with {@link MessageSysFlag#STOREHOST_V6}; the fields after them shift. The
 * topic length (TL) is 2 bytes with magic {@link #MAGIC_V2}. An end-of-file blank is
 * {@code [int32 remaining][int32 BLANK_MAGIC]}.
 */
public final class MessageLayout {

    public static final int MAGIC_V1 = 0xDAA320A7;
    public static final int MAGIC_V2 = 0xDAA320AB;
    public static final int BLANK_MAGIC = 0xCBD43194;
    /** Space a segment always keeps free for a blank marker. */
    public static final int BLANK_LENGTH = 8;
    /** Longest topic written with a 1-byte length. */
    public static final int MAX_V1_TOPIC_LENGTH = 127;
    public static final int MAX_PROPERTIES_LENGTH = Short.MAX_VALUE;

    public static final int TOTAL_SIZE = 0;
    public static final int MAGIC = 4;
    public static final int BODY_CRC = 8;
    public static final int QUEUE_ID = 12;
    public static final int FLAG = 16;
    public static final int QUEUE_OFFSET = 20;
    public static final int PHYSICAL_OFFSET = 28;
    public static final int SYS_FLAG = 36;
    public static final int BORN_TIMESTAMP = 40;
    public static final int BORN_HOST = 48;

    /** Fixed part of a v1 record with IPv4 hosts: all but body, topic and properties bytes. */
    public static final int FIXED_V1_IPV4 = 91;

    private MessageLayout() {
    }

    /** Length of a host field: 8 for IPv4, 20 for IPv6. */
    public static int hostLength(boolean v6) {
        return v6 ? 20 : 8;
    }

    /** Record size for the given parts. */
    public static int recordSize(int bodyLength, int topicLength, int propertiesLength, int sysFlag, boolean v2) {
        return FIXED_V1_IPV4 + bodyLength + topicLength + propertiesLength + (v2 ? 1 : 0)
                + ((sysFlag & MessageSysFlag.BORNHOST_V6) != 0 ? 12 : 0)
                + ((sysFlag & MessageSysFlag.STOREHOST_V6) != 0 ? 12 : 0);
    }

    /** Position of STORETIMESTAMP relative to the record start. */
    public static int storeTimestampPosition(int sysFlag) {
        return BORN_HOST + hostLength((sysFlag & MessageSysFlag.BORNHOST_V6) != 0);
    }

    /** Position of STOREHOST relative to the record start. */
    public static int storeHostPosition(int sysFlag) {
        return storeTimestampPosition(sysFlag) + 8;
    }

    /** Position of RECONSUMETIMES relative to the record start. */
    public static int reconsumeTimesPosition(int sysFlag) {
        return storeHostPosition(sysFlag) + hostLength((sysFlag & MessageSysFlag.STOREHOST_V6) != 0);
    }

    /** Position of the BODY length field relative to the record start. */
    public static int bodyLengthPosition(int sysFlag) {
        return reconsumeTimesPosition(sysFlag) + 12;
    }

    /** Whether {@code magic} is a message magic this store reads. */
    public static boolean isMessageMagic(int magic) {
        return magic == MAGIC_V1 || magic == MAGIC_V2;
    }

    /** Sets the fields assigned at append in the record starting at {@code base}. */
    public static void setAssigned(ByteBuf record, int base, long queueOffset, long commitLogOffset,
                                   long storeTimestamp) {
        record.setLong(base + QUEUE_OFFSET, queueOffset);
        record.setLong(base + PHYSICAL_OFFSET, commitLogOffset);
        int sysFlag = record.getInt(base + SYS_FLAG);
        record.setLong(base + storeTimestampPosition(sysFlag), storeTimestamp);
    }

    public static int totalSize(ByteBuf record, int base) {
        return record.getInt(base + TOTAL_SIZE);
    }

    public static int magic(ByteBuf record, int base) {
        return record.getInt(base + MAGIC);
    }

    public static long storeTimestamp(ByteBuf record, int base) {
        return record.getLong(base + storeTimestampPosition(record.getInt(base + SYS_FLAG)));
    }
}
