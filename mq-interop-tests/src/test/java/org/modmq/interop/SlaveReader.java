package org.modmq.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.CommunicationMode;
import org.apache.rocketmq.client.impl.MQClientManager;
import org.apache.rocketmq.client.impl.consumer.PullResultExt;
import org.apache.rocketmq.common.filter.ExpressionType;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.sysflag.PullSysFlag;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader;
import org.modmq.testkit.process.Await;

/**
 * Reads a topic back with the stock pull client from a slave's own ConsumeQueues: through the route
 * while it holds only the slave, or by sending every pull to the slave's address while its master still
 * runs. Stateless.
 */
final class SlaveReader {

    private static final int PULL_BATCH = 16;

    private SlaveReader() {
    }

    /**
     * Pulls the first {@value #PULL_BATCH} messages of every queue {@code sent} used, from queue offset 0,
     * and checks queue offsets, unique keys and bodies against what was sent.
     *
     * @return the number of messages checked
     */
    static int assertServes(String namesrvAddr, List<StockTraffic.Sent> sent) {
        return assertServes(namesrvAddr, sent, PULL_BATCH, SlaveReader::found);
    }

    /**
     * Reads every message {@code sent} back from the broker at {@code brokerAddr} (PULL_MESSAGE sent there
     * by the stock client's API, whatever the route says, so a replica is read while its master still
     * runs), batch after batch from queue offset 0 of each queue, and checks each one's queue offset,
     * unique key and body: a message missing from the broker's ConsumeQueue fails the check.
     *
     * @return the number of messages checked
     */
    static int assertServesAt(String namesrvAddr, String brokerAddr, List<StockTraffic.Sent> sent) {
        return assertServes(namesrvAddr, sent, Integer.MAX_VALUE,
                (consumer, queue, offset) -> foundAt(consumer, brokerAddr, queue, offset));
    }

    /** One pull of up to {@value #PULL_BATCH} messages of a queue from an offset; throws unless some were found. */
    @SuppressWarnings("deprecation") // DefaultMQPullConsumer: the stock client that pulls from a given offset
    private interface Puller {
        PullResult pull(DefaultMQPullConsumer consumer, MessageQueue queue, long offset);
    }

    @SuppressWarnings("deprecation")
    private static int assertServes(String namesrvAddr, List<StockTraffic.Sent> sent, int perQueue, Puller puller) {
        Map<MessageQueue, List<StockTraffic.Sent>> byQueue = sent.stream().collect(Collectors.groupingBy(
                StockTraffic.Sent::queue, TreeMap::new, Collectors.toList()));
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer("interop-reader");
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName("interop-reader-" + System.nanoTime());
        try {
            consumer.start();
        } catch (MQClientException e) {
            throw new IllegalStateException("cannot start the stock pull consumer", e);
        }
        int checked = 0;
        try {
            for (Map.Entry<MessageQueue, List<StockTraffic.Sent>> entry : byQueue.entrySet()) {
                MessageQueue queue = entry.getKey();
                List<StockTraffic.Sent> expected = entry.getValue().stream()
                        .sorted(Comparator.comparingLong(StockTraffic.Sent::queueOffset))
                        .limit(perQueue)
                        .toList();
                // Each pull checks at least one more message, so this ends after expected.size() pulls at most.
                int next = 0;
                while (next < expected.size()) {
                    long from = expected.get(next).queueOffset();
                    PullResult result = Await.value("messages of " + queue + " from offset " + from + " pulled",
                            Duration.ofSeconds(30), () -> puller.pull(consumer, queue, from));
                    List<MessageExt> got = result.getMsgFoundList();
                    assertThat(got).as("messages pulled from %s at %d", queue, from).isNotEmpty();
                    for (int i = 0; i < got.size() && next < expected.size(); i++, next++) {
                        StockTraffic.Sent want = expected.get(next);
                        MessageExt have = got.get(i);
                        assertThat(have.getQueueOffset()).as("queue offset in %s", queue).isEqualTo(want.queueOffset());
                        assertThat(MessageClientIDSetter.getUniqID(have)).as("unique key at %d", want.queueOffset())
                                .isEqualTo(want.msgId());
                        assertThat(have.getBody()).as("body at %d", want.queueOffset()).isEqualTo(want.body());
                        checked++;
                    }
                }
            }
        } finally {
            consumer.shutdown();
        }
        return checked;
    }

    @SuppressWarnings("deprecation")
    private static PullResult foundAt(DefaultMQPullConsumer consumer, String brokerAddr, MessageQueue queue,
            long offset) {
        PullMessageRequestHeader header = new PullMessageRequestHeader();
        header.setConsumerGroup(consumer.getConsumerGroup());
        header.setTopic(queue.getTopic());
        header.setQueueId(queue.getQueueId());
        header.setQueueOffset(offset);
        header.setMaxMsgNums(PULL_BATCH);
        header.setSysFlag(PullSysFlag.buildSysFlag(false, false, true, false));
        header.setCommitOffset(0L);
        header.setSuspendTimeoutMillis(0L);
        header.setSubscription("*");
        header.setSubVersion(0L);
        header.setExpressionType(ExpressionType.TAG);
        header.setBrokerName(queue.getBrokerName());
        PullResult result;
        try {
            result = MQClientManager.getInstance().getOrCreateMQClientInstance(consumer).getMQClientAPIImpl()
                    .pullMessage(brokerAddr, header, 5_000, CommunicationMode.SYNC, null);
        } catch (RemotingException | MQBrokerException e) {
            throw new IllegalStateException("pull from " + brokerAddr + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pulling", e);
        }
        if (result.getPullStatus() != PullStatus.FOUND) {
            throw new IllegalStateException(brokerAddr + " answered " + result);
        }
        byte[] binary = ((PullResultExt) result).getMessageBinary();
        List<MessageExt> messages = MessageDecoder.decodes(ByteBuffer.wrap(binary));
        return new PullResult(result.getPullStatus(), result.getNextBeginOffset(), result.getMinOffset(),
                result.getMaxOffset(), messages);
    }

    @SuppressWarnings("deprecation")
    private static PullResult found(DefaultMQPullConsumer consumer, MessageQueue queue, long offset) {
        PullResult result;
        try {
            result = consumer.pull(queue, "*", offset, PULL_BATCH, 5_000);
        } catch (MQClientException | RemotingException | MQBrokerException e) {
            throw new IllegalStateException("pull failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pulling", e);
        }
        if (result.getPullStatus() != PullStatus.FOUND) {
            throw new IllegalStateException("pull answered " + result);
        }
        return result;
    }
}
