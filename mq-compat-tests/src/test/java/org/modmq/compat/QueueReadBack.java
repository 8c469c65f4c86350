package org.modmq.compat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.impl.CommunicationMode;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.impl.consumer.PullResultExt;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.sysflag.PullSysFlag;
import org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader;

/**
 * Reads every queue of a topic back from one broker, from each queue's min to its max offset as the broker
 * gave them when reading started, with raw PULL_MESSAGE requests of the stock client API (so exactly that
 * broker answers, not whichever the client would pick). In controller mode a broker serves only what is
 * below its confirm offset; a queue not yet readable to its end is asked again until the deadline.
 * Stateless; each call runs on the caller's thread.
 */
final class QueueReadBack {

    /**
     * What a broker holds.
     *
     * @param keys  every key read, with how many rows carried it (more than one: a client retry of a send
     *              whose first attempt was stored after all)
     * @param rows  rows read
     * @param ends  each queue's max offset when reading started
     */
    record Stored(Map<String, Integer> keys, long rows, Map<Integer, Long> ends) {

        /** Rows beyond the first of each key. */
        long duplicates() {
            return keys.values().stream().mapToLong(count -> count - 1L).sum();
        }

        /** Of {@code expected}, the keys not read, sorted. */
        List<String> missing(Set<String> expected) {
            return expected.stream().filter(key -> !keys.containsKey(key)).sorted().toList();
        }
    }

    private static final long REQUEST_TIMEOUT_MILLIS = 3_000;
    private static final int BATCH = 32;
    private static final long RETRY_MILLIS = 100;
    private static final String GROUP = "compat_failover_audit";

    private QueueReadBack() {
    }

    /**
     * Reads queues {@code 0 .. queues-1} of {@code topic} from {@code brokerAddr}.
     *
     * @throws AssertionError if a queue cannot be read up to its end within {@code timeout}
     */
    static Stored read(MQClientAPIImpl api, String brokerAddr, String topic, int queues, Duration timeout)
            throws Exception {
        Objects.requireNonNull(brokerAddr, "brokerAddr");
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Integer> keys = new HashMap<>();
        Map<Integer, Long> ends = new TreeMap<>();
        long rows = 0;
        for (int queueId = 0; queueId < queues; queueId++) {
            MessageQueue queue = new MessageQueue(topic, "", queueId);
            long offset = api.getMinOffset(brokerAddr, queue, REQUEST_TIMEOUT_MILLIS);
            long end = api.getMaxOffset(brokerAddr, queue, REQUEST_TIMEOUT_MILLIS);
            ends.put(queueId, end);
            while (offset < end) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new AssertionError("queue " + queueId + " of " + topic + " on " + brokerAddr
                            + " not readable beyond offset " + offset + " of " + end + " within " + timeout);
                }
                PullResult result = api.pullMessage(brokerAddr, header(topic, queueId, offset), REQUEST_TIMEOUT_MILLIS,
                        CommunicationMode.SYNC, null);
                if (result.getPullStatus() != PullStatus.FOUND) {
                    Thread.sleep(RETRY_MILLIS);
                    continue;
                }
                List<MessageExt> batch = MessageDecoder.decodesBatch(
                        ByteBuffer.wrap(((PullResultExt) result).getMessageBinary()), true, false, true);
                for (MessageExt message : batch) {
                    if (message.getQueueOffset() >= offset) {
                        rows++;
                        keys.merge(String.valueOf(message.getKeys()), 1, Integer::sum);
                    }
                }
                offset = Math.max(offset + 1, result.getNextBeginOffset());
            }
        }
        return new Stored(keys, rows, ends);
    }

    private static PullMessageRequestHeader header(String topic, int queueId, long offset) {
        PullMessageRequestHeader header = new PullMessageRequestHeader();
        header.setConsumerGroup(GROUP);
        header.setTopic(topic);
        header.setQueueId(queueId);
        header.setQueueOffset(offset);
        header.setMaxMsgNums(BATCH);
        header.setSysFlag(PullSysFlag.buildSysFlag(false, false, true, false));
        header.setCommitOffset(0L);
        header.setSuspendTimeoutMillis(0L);
        header.setSubscription("*");
        header.setSubVersion(0L);
        header.setExpressionType("TAG");
        return header;
    }
}
