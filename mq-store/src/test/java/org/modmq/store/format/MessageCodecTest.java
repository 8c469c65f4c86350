package org.modmq.store.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageSysFlag;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.PutStatusException;
import org.modmq.api.message.StoredMessage;
import org.modmq.store.MessageIds;
import org.modmq.testkit.NettyLeakCheck;

@ExtendWith(NettyLeakCheck.class)
class MessageCodecTest {

    private final MessageEncoder encoder = new MessageEncoder(ByteBufAllocator.DEFAULT);

    /** The observed first record of a fresh broker (protocol doc 5.1), up to the properties. */
    @Test
    void matchesObservedFirstRecordFieldByField() {
        String props = "x".repeat(156);
        BrokerMessage message = new BrokerMessage("TopicA", 0, 0, "hello".getBytes(StandardCharsets.UTF_8), props,
                0x000001a22a7caebaL, new InetSocketAddress("127.0.0.1", 0xc7f8),
                new InetSocketAddress("127.0.0.1", 0x51af), 0, 0, 0L);
        ByteBuf record = encoder.encode(message, 0, 0, 0x000001a22a7caf1aL);
        try {
            assertThat(record.readableBytes()).isEqualTo(258);
            String expected = "00000102" + "daa320a7" + "3610a686" + "00000000" + "00000000" + "0000000000000000"
                    + "0000000000000000" + "00000000" + "000001a22a7caeba" + "7f000001" + "0000c7f8"
                    + "000001a22a7caf1a" + "7f000001" + "000051af" + "00000000" + "0000000000000000"
                    + "00000005" + "68656c6c6f" + "06" + "546f70696341" + "009c";
            assertThat(ByteBufUtil.hexDump(record, 0, expected.length() / 2)).isEqualTo(expected);
            assertThat(record.toString(102, 156, StandardCharsets.UTF_8)).isEqualTo(props);
            assertThat(record.getInt(MessageLayout.TOTAL_SIZE)).isEqualTo(258);
            assertThat(MessageLayout.storeTimestamp(record, 0)).isEqualTo(0x000001a22a7caf1aL);
        } finally {
            record.release();
        }
    }

    @Test
    void roundTripsThroughDecoder() {
        BrokerMessage message = new BrokerMessage("T", 3, 7, new byte[] {1, 2, 3}, "a\u0001b\u0002", 11,
                new InetSocketAddress("::1", 5), new InetSocketAddress("10.0.0.1", 6), MessageSysFlag.COMPRESSED, 2, 9);
        ByteBuf record = encoder.encode(message, 42, 1000, 77);
        try {
            StoredMessage stored = MessageDecoder.decode(record, 0, true);
            assertThat(stored.queueOffset()).isEqualTo(42);
            assertThat(stored.commitLogOffset()).isEqualTo(1000);
            assertThat(stored.storeTimestamp()).isEqualTo(77);
            assertThat(stored.storeSize()).isEqualTo(record.readableBytes()).isEqualTo(91 + 3 + 1 + 4 + 12);
            BrokerMessage back = stored.message();
            assertThat(back.sysFlag()).isEqualTo(MessageSysFlag.COMPRESSED | MessageSysFlag.BORNHOST_V6);
            assertThat(back.bornHost()).isEqualTo(message.bornHost());
            assertThat(back.storeHost()).isEqualTo(message.storeHost());
            assertThat(back.body()).containsExactly(1, 2, 3);
            assertThat(back.properties()).isEqualTo("a\u0001b\u0002");
            assertThat(back.reconsumeTimes()).isEqualTo(2);
            assertThat(back.preparedTransactionOffset()).isEqualTo(9);
            assertThat(back.flag()).isEqualTo(7);
        } finally {
            record.release();
        }
    }

    @Test
    void usesV2MagicForLongTopics() {
        String topic = "t".repeat(128);
        ByteBuf record = encoder.encode(new BrokerMessage(topic, 0, 0, new byte[0], "", 0,
                new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("127.0.0.1", 2), 0, 0, 0));
        try {
            assertThat(record.getInt(MessageLayout.MAGIC)).isEqualTo(MessageLayout.MAGIC_V2);
            assertThat(record.getUnsignedShort(88)).isEqualTo(128);
            assertThat(MessageDecoder.decode(record, 0, true).message().topic()).isEqualTo(topic);
        } finally {
            record.release();
        }
    }

    @Test
    void rejectsOversizedProperties() {
        BrokerMessage message = new BrokerMessage("T", 0, 0, new byte[0], "p".repeat(32768), 0,
                new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("127.0.0.1", 2), 0, 0, 0);
        assertThatThrownBy(() -> encoder.encode(message)).isInstanceOf(PutStatusException.class)
                .extracting(e -> ((PutStatusException) e).status()).isEqualTo(PutStatus.PROPERTIES_SIZE_EXCEEDED);
    }

    @Test
    void refusesTopicsThatCannotNameAQueueDirectory() {
        for (String topic : new String[] {"a/b", "a\0b", "..", "T\u00e9"}) {
            BrokerMessage message = new BrokerMessage(topic, 0, 0, new byte[0], "", 0,
                    new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("127.0.0.1", 2), 0, 0, 0);
            assertThatThrownBy(() -> encoder.encode(message)).as(topic).isInstanceOf(PutStatusException.class)
                    .extracting(e -> ((PutStatusException) e).status()).isEqualTo(PutStatus.MESSAGE_ILLEGAL);
        }
    }

    /** A record whose topic bytes are garbage (the body CRC does not cover them) is corrupt to dispatch. */
    @Test
    void summaryRefusesAGarbageTopic() {
        ByteBuf record = encoder.encode(new BrokerMessage("%RETRY%g-1|x", 0, 0, "hello".getBytes(StandardCharsets.UTF_8),
                "", 0, new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("127.0.0.1", 2), 0, 0, 0));
        try {
            assertThat(MessageDecoder.summarize(record, 0).topic()).isEqualTo("%RETRY%g-1|x");
            MessageDecoder.check(record, 0);
            int topicAt = 84 + 4 + 5 + 1;
            record.setZero(topicAt, 3);
            assertThatThrownBy(() -> MessageDecoder.summarize(record, 0)).isInstanceOf(CorruptRecordException.class)
                    .hasMessageContaining("topic");
            assertThatThrownBy(() -> MessageDecoder.check(record, 0)).as("recovery's check")
                    .isInstanceOf(CorruptRecordException.class).hasMessageContaining("topic");
        } finally {
            record.release();
        }
    }

    @Test
    void detectsBodyCorruption() {
        ByteBuf record = encoder.encode(new BrokerMessage("T", 0, 0, "hello".getBytes(StandardCharsets.UTF_8), "",
                0, new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("127.0.0.1", 2), 0, 0, 0));
        try {
            record.setByte(92, 'X');
            assertThat(MessageDecoder.bodyCrcMatches(record, 0)).isFalse();
            assertThatThrownBy(() -> MessageDecoder.decode(record, 0, true)).isInstanceOf(CorruptRecordException.class);
        } finally {
            record.release();
        }
    }

    @Test
    void formatsOffsetMsgId() {
        assertThat(MessageIds.offsetMsgId(new InetSocketAddress("127.0.0.1", 20911), 258))
                .isEqualTo("7F000001000051AF0000000000000102");
    }
}
