package org.modmq.bench;

import java.util.BitSet;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;

/**
 * What the failover load sent and what the broker acknowledged: every message carries a key made of a
 * run prefix and a sequence number, the ledger remembers which sequence numbers got SEND_OK, counts
 * every outcome (send status or exception) before and after the fault, and keeps the time of the
 * first SEND_OK of a send that started after the fault.
 *
 * <p>Thread-safe: load threads record concurrently; the command thread marks the fault and reads.
 * Times are {@link System#nanoTime()} values.
 */
final class SendLedger {

    /** Outcome name of an acknowledged send. */
    static final String SEND_OK = "SEND_OK";

    private static final long NOT_YET = Long.MAX_VALUE;

    private final String keyPrefix;
    private final AtomicLong nextSequence = new AtomicLong();
    private final BitSet acknowledged = new BitSet();
    private final Map<String, LongAdder> before = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> after = new ConcurrentHashMap<>();
    private final AtomicLong firstOkAfterFault = new AtomicLong(NOT_YET);
    private final AtomicLong firstOkElsewhere = new AtomicLong(NOT_YET);
    private final AtomicLong lastOkOnOldMaster = new AtomicLong(NOT_YET);
    private final LongAdder oldMasterOks = new LongAdder();
    private volatile long faultNanos = NOT_YET;
    private volatile String oldMaster = "";
    private volatile String firstOkStoreHost = "";

    /** @param keyPrefix starts every key of this run, e.g. {@code fo7f3a-} */
    SendLedger(String keyPrefix) {
        this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
    }

    /** Takes the next sequence number (from 0). */
    long nextSequence() {
        return nextSequence.getAndIncrement();
    }

    /** The message key of {@code sequence}. */
    String key(long sequence) {
        return keyPrefix + sequence;
    }

    /** The sequence number in {@code key}, or -1 when the key is not one of this run's. */
    long sequenceOf(String key) {
        if (key == null || !key.startsWith(keyPrefix)) {
            return -1;
        }
        try {
            return Long.parseLong(key.substring(keyPrefix.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Sequence numbers handed out so far. */
    long issued() {
        return nextSequence.get();
    }

    /**
     * Marks the moment the fault signal is sent; outcomes of sends started from then on count as after.
     *
     * @param master the master's address at that moment ({@code host:port}, as brokers write it into the
     *               offset message id)
     */
    void markFault(long nanos, String master) {
        oldMaster = Objects.requireNonNull(master, "master");
        faultNanos = nanos;
    }

    /** When the fault was marked, or {@link Long#MAX_VALUE} before. */
    long faultNanos() {
        return faultNanos;
    }

    /**
     * Records a SEND_OK of {@code sequence} for a send started at {@code startedNanos} and answered at
     * {@code answeredNanos}, stored by {@code storeHost} (empty when unknown).
     */
    void acknowledged(long sequence, long startedNanos, long answeredNanos, String storeHost) {
        synchronized (acknowledged) {
            acknowledged.set(Math.toIntExact(sequence));
        }
        count(startedNanos, SEND_OK);
        if (startedNanos < faultNanos) {
            return;
        }
        if (firstOkAfterFault.compareAndSet(NOT_YET, answeredNanos)) {
            firstOkStoreHost = storeHost;
        }
        if (storeHost.equals(oldMaster)) {
            oldMasterOks.increment();
            lastOkOnOldMaster.accumulateAndGet(answeredNanos, (a, b) -> a == NOT_YET ? b : Math.max(a, b));
        } else if (!storeHost.isEmpty()) {
            firstOkElsewhere.compareAndSet(NOT_YET, answeredNanos);
        }
    }

    /** Records an answer other than SEND_OK ({@code status} is the send status name). */
    void refused(long startedNanos, String status) {
        count(startedNanos, status);
    }

    /** Records a send that threw {@code error}. */
    void failed(long startedNanos, Throwable error) {
        count(startedNanos, outcomeOf(error));
    }

    /** Whether {@code sequence} got SEND_OK. */
    boolean isAcknowledged(long sequence) {
        synchronized (acknowledged) {
            return sequence >= 0 && sequence <= Integer.MAX_VALUE && acknowledged.get((int) sequence);
        }
    }

    /** A copy of the acknowledged sequence numbers. */
    BitSet acknowledgedSet() {
        synchronized (acknowledged) {
            return (BitSet) acknowledged.clone();
        }
    }

    /** Nanoseconds from the fault to the first SEND_OK of a send started after it, or -1 if none (yet). */
    long firstOkAfterFaultNanos() {
        long first = firstOkAfterFault.get();
        return first == NOT_YET || faultNanos == NOT_YET ? -1 : first - faultNanos;
    }

    /** Which broker (host:port from the offset message id) stored that first SEND_OK; empty if unknown. */
    String firstOkStoreHost() {
        return firstOkStoreHost;
    }

    /**
     * Nanoseconds from the fault to the first SEND_OK, of a send started after it, that a broker other
     * than the old master stored: the producer writing to the new master. -1 if none (yet).
     */
    long firstOkElsewhereNanos() {
        long first = firstOkElsewhere.get();
        return first == NOT_YET || faultNanos == NOT_YET ? -1 : first - faultNanos;
    }

    /** SEND_OKs of sends started after the fault that the old master stored. */
    long oldMasterOksAfterFault() {
        return oldMasterOks.sum();
    }

    /** Nanoseconds from the fault to the last of those, or -1 if there was none. */
    long lastOldMasterOkNanos() {
        long last = lastOkOnOldMaster.get();
        return last == NOT_YET || faultNanos == NOT_YET ? -1 : last - faultNanos;
    }

    /** Outcome counts of sends started before the fault, sorted by name. */
    Map<String, Long> outcomesBefore() {
        return snapshot(before);
    }

    /** Outcome counts of sends started at or after the fault, sorted by name. */
    Map<String, Long> outcomesAfter() {
        return snapshot(after);
    }

    /** Sends that did not end in SEND_OK, started at or after the fault. */
    long failedAfterFault() {
        return total(after) - after.getOrDefault(SEND_OK, new LongAdder()).sum();
    }

    /** Sends that did not end in SEND_OK, started before the fault. */
    long failedBeforeFault() {
        return total(before) - before.getOrDefault(SEND_OK, new LongAdder()).sum();
    }

    /**
     * A short name for why a send failed: the class of the innermost RocketMQ exception in the cause chain
     * (the stock client wraps the last attempt's failure), with the response code for broker and client
     * exceptions that carry one ({@code MQBrokerException_2012}, {@code RemotingTimeoutException}).
     */
    static String outcomeOf(Throwable error) {
        Throwable inner = error;
        Throwable cursor = error;
        for (int depth = 0; depth < 8 && cursor.getCause() != null && cursor.getCause() != cursor; depth++) {
            cursor = cursor.getCause();
            if (cursor.getClass().getName().startsWith("org.apache.rocketmq.")) {
                inner = cursor;
            }
        }
        String name = inner.getClass().getSimpleName();
        if (inner instanceof MQBrokerException broker) {
            return name + "_" + broker.getResponseCode();
        }
        if (inner instanceof MQClientException client && client.getResponseCode() != -1) {
            return name + "_" + client.getResponseCode();
        }
        return name;
    }

    private void count(long startedNanos, String outcome) {
        Map<String, LongAdder> side = startedNanos >= faultNanos ? after : before;
        side.computeIfAbsent(outcome, k -> new LongAdder()).increment();
    }

    private static Map<String, Long> snapshot(Map<String, LongAdder> counts) {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((outcome, count) -> copy.put(outcome, count.sum()));
        return copy;
    }

    private static long total(Map<String, LongAdder> counts) {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }
}
