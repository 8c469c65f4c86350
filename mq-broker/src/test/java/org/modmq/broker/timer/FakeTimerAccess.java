package org.modmq.broker.timer;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.PutStatus;
import org.modmq.api.message.StoredMessage;
import org.modmq.store.AppendedPut;
import org.modmq.store.PutResult;

/** An in-memory CommitLog with one wheel-topic queue, for stepping the agent. Not thread-safe. */
final class FakeTimerAccess implements TimerAccess {

    static final int SIZE = 200;

    final TreeMap<Long, StoredMessage> log;
    final List<StoredMessage> wheelQueue;
    final List<BrokerMessage> delivered;
    private final long[] nextPhysical;
    boolean master = true;
    boolean refuse;
    long minOffset;

    FakeTimerAccess() {
        this.log = new TreeMap<>();
        this.wheelQueue = new ArrayList<>();
        this.delivered = new ArrayList<>();
        this.nextPhysical = new long[1];
    }

    /** Another broker's view of the same (replicated) log, with its own role. */
    FakeTimerAccess(FakeTimerAccess replicated) {
        this.log = replicated.log;
        this.wheelQueue = replicated.wheelQueue;
        this.delivered = replicated.delivered;
        this.nextPhysical = replicated.nextPhysical;
    }

    /** Stores {@code message} as the broker would: into the wheel queue when it is a wheel-topic message. */
    StoredMessage store(BrokerMessage message, long storeTimestamp) {
        boolean wheel = TimerProperties.TOPIC.equals(message.topic());
        StoredMessage stored = new StoredMessage(message, SIZE, 0, wheel ? wheelQueue.size() : -1, nextPhysical[0],
                storeTimestamp);
        log.put(nextPhysical[0], stored);
        nextPhysical[0] += SIZE;
        if (wheel) {
            wheelQueue.add(stored);
        }
        return stored;
    }

    @Override
    public boolean master() {
        return master;
    }

    @Override
    public long minOffset() {
        return minOffset;
    }

    @Override
    public long maxOffset() {
        return wheelQueue.size();
    }

    @Override
    public Batch read(long queueOffset, int max) {
        List<StoredMessage> messages = new ArrayList<>();
        long next = Math.max(queueOffset, minOffset);
        while (next < wheelQueue.size() && messages.size() < max) {
            StoredMessage stored = wheelQueue.get((int) next);
            if (log.containsKey(stored.commitLogOffset())) {
                messages.add(stored);
            }
            next++;
        }
        return new Batch(messages, next);
    }

    @Override
    public Batch readMarkers(long queueOffset, int max) {
        Batch all = read(queueOffset, Integer.MAX_VALUE);
        List<StoredMessage> markers = all.messages().stream()
                .filter(m -> TimerProperties.PROGRESS_TAG.equals(m.message().tags())).limit(max).toList();
        return new Batch(markers, markers.size() < max ? all.nextOffset() : markers.get(max - 1).queueOffset() + 1);
    }

    @Override
    public InetSocketAddress storeHost() {
        return new InetSocketAddress("127.0.0.1", 10911);
    }

    @Override
    public Optional<StoredMessage> message(long commitLogOffset) {
        return Optional.ofNullable(log.get(commitLogOffset));
    }

    @Override
    public AppendedPut append(BrokerMessage message) {
        if (refuse) {
            PutResult refused = new PutResult(PutStatus.SERVICE_NOT_AVAILABLE, -1, 0, -1, 0, 0, List.of(), "refused");
            return new AppendedPut(refused, CompletableFuture.completedFuture(refused),
                    CompletableFuture.completedFuture(refused));
        }
        if (!TimerProperties.TOPIC.equals(message.topic())) {
            delivered.add(message);
        }
        StoredMessage stored = store(message, 0);
        PutResult ok = new PutResult(PutStatus.PUT_OK, stored.commitLogOffset(), SIZE, 0, 1, 0, List.of(), "");
        return new AppendedPut(ok, CompletableFuture.completedFuture(ok), CompletableFuture.completedFuture(ok));
    }

    /** Bodies delivered so far, in order. */
    List<String> deliveredBodies() {
        return delivered.stream().map(m -> new String(m.body())).toList();
    }
}
