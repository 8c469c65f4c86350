package org.modmq.store.format;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.zip.CRC32;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageSysFlag;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;

/**
 * Encodes a {@link BrokerMessage} once into the stored record format ({@link MessageLayout}).
 * Thread-safe (stateless apart from the allocator).
 */
public final class MessageEncoder {

    private final ByteBufAllocator allocator;

    public MessageEncoder(ByteBufAllocator allocator) {
        this.allocator = Objects.requireNonNull(allocator, "allocator");
    }

    /**
     * Encodes the record with QUEUEOFFSET, PHYSICALOFFSET and STORETIMESTAMP set to zero; the CommitLog
     * fills them in under its lock with {@link MessageLayout#setAssigned}. The caller owns the buffer.
     *
     * @throws PutStatusException PROPERTIES_SIZE_EXCEEDED or MESSAGE_ILLEGAL
     */
    public ByteBuf encode(BrokerMessage message) {
        byte[] topic = message.topic().getBytes(StandardCharsets.UTF_8);
        byte[] properties = message.properties().getBytes(StandardCharsets.UTF_8);
        if (topic.length == 0 || topic.length > Short.MAX_VALUE) {
            throw new PutStatusException(PutStatus.MESSAGE_ILLEGAL, "topic length " + topic.length
                    + " is outside 1.." + Short.MAX_VALUE);
        }
        if (!TopicNames.legal(message.topic())) {
            throw new PutStatusException(PutStatus.MESSAGE_ILLEGAL, "topic " + message.topic()
                    + " has characters outside %|a-zA-Z0-9_-");
        }
        if (properties.length > MessageLayout.MAX_PROPERTIES_LENGTH) {
            throw new PutStatusException(PutStatus.PROPERTIES_SIZE_EXCEEDED, "properties length "
                    + properties.length + " exceeds " + MessageLayout.MAX_PROPERTIES_LENGTH);
        }
        boolean bornV6 = message.bornHost().getAddress() instanceof Inet6Address;
        boolean storeV6 = message.storeHost().getAddress() instanceof Inet6Address;
        int sysFlag = message.sysFlag() & ~(MessageSysFlag.BORNHOST_V6 | MessageSysFlag.STOREHOST_V6);
        sysFlag |= (bornV6 ? MessageSysFlag.BORNHOST_V6 : 0) | (storeV6 ? MessageSysFlag.STOREHOST_V6 : 0);
        boolean v2 = topic.length > MessageLayout.MAX_V1_TOPIC_LENGTH;
        byte[] body = message.body();
        int size = MessageLayout.recordSize(body.length, topic.length, properties.length, sysFlag, v2);
        ByteBuf out = allocator.buffer(size, size);
        try {
            out.writeInt(size);
            out.writeInt(v2 ? MessageLayout.MAGIC_V2 : MessageLayout.MAGIC_V1);
            out.writeInt(bodyCrc(body));
            out.writeInt(message.queueId());
            out.writeInt(message.flag());
            out.writeLong(0L);
            out.writeLong(0L);
            out.writeInt(sysFlag);
            out.writeLong(message.bornTimestamp());
            writeHost(out, message.bornHost());
            out.writeLong(0L);
            writeHost(out, message.storeHost());
            out.writeInt(message.reconsumeTimes());
            out.writeLong(message.preparedTransactionOffset());
            out.writeInt(body.length);
            out.writeBytes(body);
            if (v2) {
                out.writeShort(topic.length);
            } else {
                out.writeByte(topic.length);
            }
            out.writeBytes(topic);
            out.writeShort(properties.length);
            out.writeBytes(properties);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** Encodes with the assigned fields set; for tests and tools. The caller owns the buffer. */
    public ByteBuf encode(BrokerMessage message, long queueOffset, long commitLogOffset, long storeTimestamp) {
        ByteBuf out = encode(message);
        MessageLayout.setAssigned(out, 0, queueOffset, commitLogOffset, storeTimestamp);
        return out;
    }

    /** BODYCRC: CRC32 of the body with the sign bit cleared. */
    public static int bodyCrc(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return (int) (crc.getValue() & 0x7FFFFFFFL);
    }

    private static void writeHost(ByteBuf out, InetSocketAddress host) {
        byte[] ip = host.getAddress() == null ? new byte[4] : host.getAddress().getAddress();
        out.writeBytes(ip);
        out.writeInt(host.getPort());
    }
}
