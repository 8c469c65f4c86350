package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.modmq.store.GetMessageResult;
import org.modmq.store.MessageStore;

/** Comparisons of two stores' CommitLogs and queues. */
final class LogAssertions {

    private LogAssertions() {
    }

    /** The replica holds {@code end} and has dispatched every queue as far as the master. */
    static boolean caughtUp(MessageStore master, MessageStore replica, long end) {
        if (replica.getCommitLogMaxOffset() != end) {
            return false;
        }
        for (int queue = 0; queue < 4; queue++) {
            if (replica.getMaxOffsetInQueue("TopicR", queue) != master.getMaxOffsetInQueue("TopicR", queue)) {
                return false;
            }
        }
        return true;
    }

    static void assertSameLog(MessageStore master, MessageStore replica, long from) {
        long end = master.getCommitLogMaxOffset();
        assertThat(replica.getCommitLogMaxOffset()).isEqualTo(end);
        assertThat(TestStores.bytes(replica.replicatedLog(), from, end))
                .isEqualTo(TestStores.bytes(master.replicatedLog(), from, end));
    }

    static void assertSameQueues(MessageStore master, MessageStore replica) {
        for (int queue = 0; queue < 4; queue++) {
            long max = master.getMaxOffsetInQueue("TopicR", queue);
            long min = replica.getMinOffsetInQueue("TopicR", queue);
            assertThat(replica.getMaxOffsetInQueue("TopicR", queue)).isEqualTo(max);
            assertThat(messages(replica, queue, min, max)).as("queue %d [%d, %d)", queue, min, max)
                    .hasSize((int) (max - min)).isEqualTo(messages(master, queue, min, max));
        }
    }

    /** CRC32 of each message's stored bytes (short failure messages). */
    static List<Long> messages(MessageStore store, int queue, long from, long to) {
        List<Long> all = new ArrayList<>();
        long at = from;
        while (at < to) {
            try (GetMessageResult result = store.getMessages("TopicR", queue, at, 64, tag -> true, 1 << 20)) {
                for (ByteBuf message : result.messages()) {
                    byte[] copy = new byte[message.readableBytes()];
                    message.getBytes(message.readerIndex(), copy);
                    CRC32 crc = new CRC32();
                    crc.update(copy);
                    all.add(crc.getValue());
                }
                assertThat(result.nextBeginOffset()).isGreaterThan(at);
                at = result.nextBeginOffset();
            }
        }
        return all;
    }
}
