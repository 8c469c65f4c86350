package org.modmq.store.dispatch;

import io.netty.buffer.ByteBuf;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.modmq.api.message.DelayLevels;
import org.modmq.store.format.CorruptRecordException;
import org.modmq.store.format.MessageDecoder;
import org.modmq.store.format.MessageLayout;
import org.modmq.store.format.RecordSummary;
import org.modmq.store.format.TopicQueue;
import org.modmq.store.index.IndexStore;
import org.modmq.store.log.CommitLog;
import org.modmq.store.queue.ConsumeQueue;
import org.modmq.store.queue.ConsumeQueueTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the CommitLog behind the writer, from the dispatched offset up to
 * {@link CommitLog#confirmedOffset()} (and below a limit, see {@link #limit}), and builds ConsumeQueue and index entries, then tells listeners
 * which queues grew. Any thread may call {@link #doWork()}; calls are serialized, so the store runs it
 * on the writer's thread right after each append.
 *
 * <p>A local append {@linkplain #offer offers} the summaries of the records it wrote; a range whose
 * summaries wait here is dispatched from them instead of being read back. Reading back a batch written
 * with {@code pwrite} faulted its pages into the mapping: about 7 % of a broker's CPU under batch sends.
 */
public final class DispatchAgent {

    private static final Logger LOG = LoggerFactory.getLogger(DispatchAgent.class);
    private static final int CHUNK = 4 * 1024 * 1024;

    private final CommitLog log;
    private final ConsumeQueueTable queues;
    private final IndexStore index;
    private final DelayLevels delayLevels;
    private final List<QueueListener> listeners = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private volatile long dispatched;
    private volatile LongSupplier limit = () -> Long.MAX_VALUE;
    /** Summaries of local appends not dispatched yet, by the offset of their first record. */
    private final ConcurrentSkipListMap<Long, Offered> offered = new ConcurrentSkipListMap<>();

    /**
     * Summaries wait only for appends starting less than this far beyond the dispatched offset (a limit
     * holds dispatch in controller mode); further ones are read back when their turn comes.
     */
    static final long MAX_OFFERED_AHEAD = 16L * 1024 * 1024;

    private record Offered(long end, List<RecordSummary> records) {
    }

    public DispatchAgent(CommitLog log, ConsumeQueueTable queues, IndexStore index, long from) {
        this(log, queues, index, from, DelayLevels.parse(DelayLevels.DEFAULT));
    }

    /** @param delayLevels what SCHEDULE_TOPIC_XXXX entries get as tag code (their delivery time) */
    public DispatchAgent(CommitLog log, ConsumeQueueTable queues, IndexStore index, long from,
                         DelayLevels delayLevels) {
        this.log = Objects.requireNonNull(log, "log");
        this.queues = Objects.requireNonNull(queues, "queues");
        this.index = Objects.requireNonNull(index, "index");
        this.delayLevels = Objects.requireNonNull(delayLevels, "delayLevels");
        this.dispatched = from;
    }

    public void addListener(QueueListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Dispatches nothing at or above {@code limit}'s offset from now on (controller mode: the confirm
     * offset, so consumers never read what a failover could take back).
     */
    public void limit(LongSupplier limit) {
        this.limit = Objects.requireNonNull(limit, "limit");
    }

    /** The CommitLog offset below which every record is dispatched. */
    public long dispatchedOffset() {
        return dispatched;
    }

    /** Restarts dispatch at {@code offset} (replica truncation); summaries offered so far are dropped. */
    public void resetTo(long offset) {
        lock.lock();
        try {
            dispatched = offset;
            offered.clear();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The summaries of the records a local append wrote at [{@code start}, {@code end}), in order. Called
     * under the CommitLog's append lock (a truncation, which takes it too, then drops them through
     * {@link #resetTo}); dropped when dispatch is already past {@code start} or far behind it. The list is
     * handed over, not copied. Never blocks.
     */
    public void offer(long start, long end, List<RecordSummary> records) {
        long from = dispatched;
        if (start >= from && start - from < MAX_OFFERED_AHEAD) {
            offered.put(start, new Offered(end, records));
        }
    }

    /** Appends whose summaries wait for their turn (tests). */
    int waitingOffers() {
        return offered.size();
    }

    /** Dispatches everything confirmed so far; returns the number of records dispatched. */
    public int doWork() {
        lock.lock();
        try {
            Map<TopicQueue, Long> grown = new LinkedHashMap<>();
            int work = 0;
            long end = Math.min(log.confirmedOffset(), limit.getAsLong());
            while (dispatched < end) {
                Offered ready = offered.get(dispatched);
                if (ready != null && ready.end() <= end) {
                    offered.remove(dispatched);
                    for (RecordSummary record : ready.records()) {
                        dispatchSummary(record, grown);
                        dispatched = record.commitLogOffset() + record.size();
                        work++;
                    }
                    continue;
                }
                int done = dispatchChunk(end, grown);
                if (done < 0) {
                    break;
                }
                work += done;
            }
            // Offers the read-back path passed (their appender came after another's doWork) are stale.
            offered.headMap(dispatched).clear();
            grown.forEach((queue, max) -> notifyListeners(queue, max));
            return work;
        } finally {
            lock.unlock();
        }
    }

    private int dispatchChunk(long end, Map<TopicQueue, Long> grown) {
        long capacity = log.files().capacity();
        long segmentEnd = log.files().startOf(dispatched) + capacity;
        int length = (int) Math.min(Math.min(end, segmentEnd) - dispatched, CHUNK);
        ByteBuf view = log.read(dispatched, length);
        int work = 0;
        try {
            int base = view.readerIndex();
            int at = 0;
            while (length - at >= 8) {
                int size = view.getInt(base + at);
                int magic = view.getInt(base + at + 4);
                if (magic == MessageLayout.BLANK_MAGIC) {
                    dispatched = segmentEnd;
                    return work;
                }
                if (size <= 0 || size > length - at) {
                    if (at == 0 && size > 0 && dispatched + size <= end) {
                        ByteBuf whole = log.read(dispatched, size);
                        try {
                            dispatchRecord(whole, whole.readerIndex(), grown);
                        } finally {
                            whole.release();
                        }
                        dispatched += size;
                        return 1;
                    }
                    break;
                }
                dispatchRecord(view, base + at, grown);
                at += size;
                dispatched += size;
                work++;
            }
            if (at == 0) {
                // Below a limit inside a record, the record waits for the limit to pass it.
                if (end >= log.confirmedOffset()) {
                    LOG.error("cannot dispatch at {}: no whole record below {}", dispatched, end);
                }
                return -1;
            }
            return work;
        } catch (CorruptRecordException e) {
            LOG.error("corrupt record at CommitLog offset {}; dispatch stops there: {}", dispatched, e.getMessage());
            return -1;
        } finally {
            view.release();
        }
    }

    private void dispatchRecord(ByteBuf buf, int base, Map<TopicQueue, Long> grown) {
        dispatchSummary(MessageDecoder.summarize(buf, base), grown);
    }

    private void dispatchSummary(RecordSummary record, Map<TopicQueue, Long> grown) {
        if (record.consumable()) {
            ConsumeQueue queue = queues.get(record.topic(), record.queueId(), true);
            if (queue.put(record.queueOffset(), record.commitLogOffset(), record.size(), record.tagsCode(delayLevels))) {
                TopicQueue key = new TopicQueue(record.topic(), record.queueId());
                log.queueOffsets().raiseTo(key, record.queueOffset() + 1);
                grown.put(key, queue.maxOffset());
            }
        }
        if (record.indexable()) {
            index.add(record);
        }
    }

    private void notifyListeners(TopicQueue queue, long max) {
        for (QueueListener listener : listeners) {
            try {
                listener.onDispatched(queue.topic(), queue.queueId(), max);
            } catch (RuntimeException e) {
                LOG.error("queue listener failed", e);
            }
        }
    }
}
