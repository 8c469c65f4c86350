package org.modmq.bench;

import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * After the load: reads the whole topic back with a lite pull consumer of a fresh group, assigned every
 * queue and starting at the first offset, and compares what it reads with the {@link SendLedger}.
 * Rows are told apart by queue and queue offset, so a batch the consumer happens to hand out twice is
 * not a duplicate; what counts is what the broker stores:
 *
 * <ul>
 *   <li>{@code missing}: acknowledged (SEND_OK) but stored in no readable row: a lost message;</li>
 *   <li>{@code duplicates}: rows beyond the first that carry the same key (a client retry of a send
 *       whose first attempt was stored after all);</li>
 *   <li>{@code unacknowledged_stored}: keys readable that never got SEND_OK (stored, but the answer was
 *       lost or said something else).</li>
 * </ul>
 *
 * Reading stops once every queue has been read from its min to its max offset as the master gave them
 * before reading, or after {@code idleMillis} without a new row, or at {@code timeoutMillis}. Used by
 * one thread.
 */
final class DeliveryAudit {

    /**
     * @param rowsStored   rows the master's queues held when reading started, or -1 if that was unknown
     * @param rowsRead     distinct rows (queue, offset) read
     * @param redelivered  rows the consumer handed out more than once (not counted anywhere else)
     * @param foreign      rows without a key of this run (the first, key-less message)
     * @param complete     whether every queue was read up to its max offset
     */
    record Result(long acknowledged, long missing, long duplicates, long unacknowledgedStored, long rowsStored,
                  long rowsRead, long redelivered, long foreign, boolean complete, long millis) {
    }

    private static final long REQUEST_TIMEOUT_MILLIS = 3_000;
    private static final long POLL_MILLIS = 500;

    private final BenchClients clients;
    private final MQClientAPIImpl api;

    DeliveryAudit(BenchClients clients, MQClientAPIImpl api) {
        this.clients = Objects.requireNonNull(clients, "clients");
        this.api = Objects.requireNonNull(api, "api");
    }

    /**
     * Reads {@code topic} back and compares it with {@code ledger}.
     *
     * @param master the master's address now (for the queue offsets), or {@code null} if there is none
     */
    Result audit(String topic, SendLedger ledger, String master, long idleMillis, long timeoutMillis)
            throws Exception {
        long started = System.nanoTime();
        long deadline = started + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        long idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMillis);
        BitSet acknowledged = ledger.acknowledgedSet();
        BitSet seen = new BitSet();
        Map<Integer, BitSet> rows = new HashMap<>();
        long duplicates = 0;
        long redelivered = 0;
        long foreign = 0;
        long read = 0;
        DefaultLitePullConsumer consumer = clients.litePullConsumerForAssign("failover-audit");
        consumer.start();
        Map<Integer, long[]> ranges;
        try {
            Collection<MessageQueue> queues = consumer.fetchMessageQueues(topic);
            ranges = master == null ? null : ranges(master, queues);
            // No seek: with a fresh group the consumer starts at the first offset by itself, and a seek
            // while pulls are in flight interrupts them and closes the connection they share.
            consumer.assign(queues);
            long lastNew = System.nanoTime();
            while (System.nanoTime() - deadline < 0 && System.nanoTime() - lastNew < idleNanos
                    && !complete(ranges, rows)) {
                List<MessageExt> batch = consumer.poll(POLL_MILLIS);
                for (MessageExt message : batch) {
                    BitSet queueRows = rows.computeIfAbsent(message.getQueueId(), q -> new BitSet());
                    int offset = Math.toIntExact(message.getQueueOffset());
                    if (queueRows.get(offset)) {
                        redelivered++;
                        continue;
                    }
                    queueRows.set(offset);
                    read++;
                    lastNew = System.nanoTime();
                    long sequence = ledger.sequenceOf(message.getKeys());
                    if (sequence < 0 || sequence > Integer.MAX_VALUE) {
                        foreign++;
                    } else if (seen.get((int) sequence)) {
                        duplicates++;
                    } else {
                        seen.set((int) sequence);
                    }
                }
            }
        } finally {
            consumer.shutdown();
        }
        BitSet missing = (BitSet) acknowledged.clone();
        missing.andNot(seen);
        BitSet unacknowledged = (BitSet) seen.clone();
        unacknowledged.andNot(acknowledged);
        long stored = ranges == null ? -1 : ranges.values().stream().mapToLong(r -> r[1] - r[0]).sum();
        return new Result(acknowledged.cardinality(), missing.cardinality(), duplicates, unacknowledged.cardinality(),
                stored, read, redelivered, foreign, complete(ranges, rows),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    /** Whether every queue's rows from its min to its max offset have been read (false when unknown). */
    private static boolean complete(Map<Integer, long[]> ranges, Map<Integer, BitSet> rows) {
        if (ranges == null) {
            return false;
        }
        for (Map.Entry<Integer, long[]> range : ranges.entrySet()) {
            long min = range.getValue()[0];
            long max = range.getValue()[1];
            BitSet read = rows.getOrDefault(range.getKey(), new BitSet());
            if (max > min && read.get(Math.toIntExact(min), Math.toIntExact(max)).cardinality() < max - min) {
                return false;
            }
        }
        return true;
    }

    /** Queue id to {min, max} offset on {@code master}, or {@code null} if a queue cannot be asked. */
    private Map<Integer, long[]> ranges(String master, Collection<MessageQueue> queues) throws InterruptedException {
        Map<Integer, long[]> ranges = new HashMap<>();
        for (MessageQueue queue : queues) {
            try {
                ranges.put(queue.getQueueId(), new long[] {api.getMinOffset(master, queue, REQUEST_TIMEOUT_MILLIS),
                        api.getMaxOffset(master, queue, REQUEST_TIMEOUT_MILLIS)});
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                return null;
            }
        }
        return ranges;
    }
}
