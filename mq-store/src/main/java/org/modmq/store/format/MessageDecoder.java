package org.modmq.store.format;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.DelayLevels;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.MessageSysFlag;
import org.modmq.api.message.StoredMessage;

/**
 * Decodes stored records ({@link MessageLayout}). Stateless and thread-safe. Methods read at absolute
 * positions and never move the buffer's indexes; the caller keeps ownership of the buffer.
 */
public final class MessageDecoder {

    private MessageDecoder() {
    }

    /**
     * Decodes the record starting at {@code base}.
     *
     * @param checkCrc whether to verify BODYCRC
     * @throws CorruptRecordException when the magic, size or (if asked) body CRC is wrong
     */
    public static StoredMessage decode(ByteBuf buf, int base, boolean checkCrc) {
        int size = checkFrame(buf, base);
        int magic = MessageLayout.magic(buf, base);
        int sysFlag = buf.getInt(base + MessageLayout.SYS_FLAG);
        boolean bornV6 = (sysFlag & MessageSysFlag.BORNHOST_V6) != 0;
        boolean storeV6 = (sysFlag & MessageSysFlag.STOREHOST_V6) != 0;
        int bodyCrc = buf.getInt(base + MessageLayout.BODY_CRC);
        InetSocketAddress bornHost = host(buf, base + MessageLayout.BORN_HOST, bornV6);
        InetSocketAddress storeHost = host(buf, base + MessageLayout.storeHostPosition(sysFlag), storeV6);
        int at = base + MessageLayout.reconsumeTimesPosition(sysFlag);
        int reconsume = buf.getInt(at);
        long prepared = buf.getLong(at + 4);
        int bodyLength = buf.getInt(at + 12);
        int bodyAt = at + 16;
        if (bodyLength < 0 || bodyAt + bodyLength > base + size) {
            throw new CorruptRecordException("body length " + bodyLength + " does not fit the record");
        }
        byte[] body = new byte[bodyLength];
        buf.getBytes(bodyAt, body);
        if (checkCrc && MessageEncoder.bodyCrc(body) != bodyCrc) {
            throw new CorruptRecordException("body CRC mismatch");
        }
        int topicAt = bodyAt + bodyLength;
        boolean v2 = magic == MessageLayout.MAGIC_V2;
        int topicLength = v2 ? buf.getUnsignedShort(topicAt) : buf.getUnsignedByte(topicAt);
        topicAt += v2 ? 2 : 1;
        int propsAt = topicAt + topicLength;
        if (propsAt + 2 > base + size) {
            throw new CorruptRecordException("topic length " + topicLength + " does not fit the record");
        }
        int propsLength = buf.getUnsignedShort(propsAt);
        if (propsAt + 2 + propsLength != base + size) {
            throw new CorruptRecordException("field lengths do not add up to TOTALSIZE " + size);
        }
        String topic = buf.toString(topicAt, topicLength, StandardCharsets.UTF_8);
        String properties = buf.toString(propsAt + 2, propsLength, StandardCharsets.UTF_8);
        BrokerMessage message = new BrokerMessage(topic, buf.getInt(base + MessageLayout.QUEUE_ID),
                buf.getInt(base + MessageLayout.FLAG), body, properties,
                buf.getLong(base + MessageLayout.BORN_TIMESTAMP), bornHost, storeHost, sysFlag, reconsume, prepared);
        return new StoredMessage(message, size, bodyCrc, buf.getLong(base + MessageLayout.QUEUE_OFFSET),
                buf.getLong(base + MessageLayout.PHYSICAL_OFFSET), MessageLayout.storeTimestamp(buf, base));
    }

    /**
     * The fields dispatch needs, without copying the body.
     *
     * @throws CorruptRecordException when the frame is malformed or the topic is not a legal name
     */
    public static RecordSummary summarize(ByteBuf buf, int base) {
        int size = checkFrame(buf, base);
        int sysFlag = buf.getInt(base + MessageLayout.SYS_FLAG);
        int topicAt = checkFields(buf, base, size, sysFlag);
        boolean v2 = MessageLayout.magic(buf, base) == MessageLayout.MAGIC_V2;
        int topicLength = v2 ? buf.getUnsignedShort(topicAt) : buf.getUnsignedByte(topicAt);
        topicAt += v2 ? 2 : 1;
        int propsAt = topicAt + topicLength;
        String topic = buf.toString(topicAt, topicLength, StandardCharsets.UTF_8);
        String properties = buf.toString(propsAt + 2, buf.getUnsignedShort(propsAt), StandardCharsets.UTF_8);
        return new RecordSummary(buf.getLong(base + MessageLayout.PHYSICAL_OFFSET), size, topic,
                buf.getInt(base + MessageLayout.QUEUE_ID), buf.getLong(base + MessageLayout.QUEUE_OFFSET), sysFlag,
                MessageLayout.storeTimestamp(buf, base), PropertyScan.find(properties, MessageProperties.TAGS),
                PropertyScan.find(properties, MessageProperties.KEYS),
                PropertyScan.find(properties, MessageProperties.UNIQ_KEY),
                DelayLevels.SCHEDULE_TOPIC.equals(topic) ? PropertyScan.find(properties, MessageProperties.DELAY) : null);
    }

    /**
     * Checks what {@link #summarize} checks (frame, field lengths, topic name) without decoding any field:
     * recovery's walk over records it does not dispatch.
     *
     * @throws CorruptRecordException when the frame is malformed or the topic is not a legal name
     */
    public static void check(ByteBuf buf, int base) {
        int size = checkFrame(buf, base);
        checkFields(buf, base, size, buf.getInt(base + MessageLayout.SYS_FLAG));
    }

    /** Field lengths add up to TOTALSIZE and the topic is a legal name; returns the topic length's position. */
    private static int checkFields(ByteBuf buf, int base, int size, int sysFlag) {
        int bodyLengthAt = base + MessageLayout.bodyLengthPosition(sysFlag);
        int topicAt = bodyLengthAt + 4 + buf.getInt(bodyLengthAt);
        boolean v2 = MessageLayout.magic(buf, base) == MessageLayout.MAGIC_V2;
        if (topicAt < bodyLengthAt + 4 || topicAt + 2 > base + size) {
            throw new CorruptRecordException("body length does not fit the record");
        }
        int topicLength = v2 ? buf.getUnsignedShort(topicAt) : buf.getUnsignedByte(topicAt);
        int nameAt = topicAt + (v2 ? 2 : 1);
        int propsAt = nameAt + topicLength;
        if (propsAt + 2 > base + size || propsAt + 2 + buf.getUnsignedShort(propsAt) != base + size) {
            throw new CorruptRecordException("field lengths do not add up to TOTALSIZE " + size);
        }
        // Garbage that happens to frame as a record: dispatch must not turn it into a directory name. The
        // legal characters are ASCII, so the bytes can be checked as they are (a UTF-8 sequence never is).
        if (topicLength == 0 || !TopicNames.legal(buf, nameAt, topicLength)) {
            throw new CorruptRecordException("topic is not a legal topic name");
        }
        return topicAt;
    }

    /** Whether the body CRC of the record at {@code base} matches its BODYCRC field. */
    public static boolean bodyCrcMatches(ByteBuf buf, int base) {
        int sysFlag = buf.getInt(base + MessageLayout.SYS_FLAG);
        int at = base + MessageLayout.bodyLengthPosition(sysFlag);
        int length = buf.getInt(at);
        int size = MessageLayout.totalSize(buf, base);
        if (length < 0 || at + 4 + length > base + size) {
            return false;
        }
        CRC32 crc = new CRC32();
        crc.update(buf.nioBuffer(at + 4, length));
        return (int) (crc.getValue() & 0x7FFFFFFFL) == buf.getInt(base + MessageLayout.BODY_CRC);
    }

    private static int checkFrame(ByteBuf buf, int base) {
        if (buf.capacity() - base < MessageLayout.FIXED_V1_IPV4) {
            throw new CorruptRecordException("fewer bytes than a minimal record");
        }
        int magic = MessageLayout.magic(buf, base);
        if (!MessageLayout.isMessageMagic(magic)) {
            throw new CorruptRecordException("bad magic 0x" + Integer.toHexString(magic));
        }
        int size = MessageLayout.totalSize(buf, base);
        if (size < MessageLayout.FIXED_V1_IPV4 || size > buf.capacity() - base) {
            throw new CorruptRecordException("TOTALSIZE " + size + " does not fit the buffer");
        }
        return size;
    }

    private static InetSocketAddress host(ByteBuf buf, int at, boolean v6) {
        byte[] ip = new byte[v6 ? 16 : 4];
        buf.getBytes(at, ip);
        try {
            return new InetSocketAddress(InetAddress.getByAddress(ip), buf.getInt(at + ip.length));
        } catch (UnknownHostException e) {
            throw new CorruptRecordException("bad host address: " + e.getMessage());
        }
    }
}
