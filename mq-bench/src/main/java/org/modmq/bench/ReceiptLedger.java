package org.modmq.bench;

import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which messages of one run the broker owes the consumer and which arrived, for the {@code delay} and
 * {@code transaction} workloads. A message is named by a sequence number written into its body after a
 * wall-clock stamp (epoch ms), both big-endian int64. A receipt may be seen before its send is answered
 * (a commit or a short delay can beat the answer), so lost and unexpected are set differences taken at
 * the end, never running counts.
 *
 * <p>Thread-safe: senders and consumer threads record concurrently; one lock, held briefly.
 */
final class ReceiptLedger {

    /** Bytes a body needs at least: the stamp and the sequence number. */
    static final int HEADER_BYTES = 2 * Long.BYTES;

    private final AtomicLong nextSequence = new AtomicLong();
    private final BitSet expected = new BitSet();
    private final BitSet received = new BitSet();
    private long duplicates;

    /** Takes the next sequence number (from 0). */
    int nextSequence() {
        return Math.toIntExact(nextSequence.getAndIncrement());
    }

    /** A body of {@code size} bytes (at least {@link #HEADER_BYTES}) carrying {@code stampMs} and {@code sequence}. */
    static byte[] body(int size, long stampMs, int sequence) {
        return ByteBuffer.allocate(Math.max(HEADER_BYTES, size)).putLong(stampMs).putLong(sequence).array();
    }

    /** The stamp of a body made by {@link #body}, or -1 for another body (e.g. the route probe). */
    static long stampOf(byte[] body) {
        return body == null || body.length < HEADER_BYTES ? -1 : ByteBuffer.wrap(body).getLong(0);
    }

    /** The sequence number of a body made by {@link #body}, or -1 for another body. */
    static int sequenceOf(byte[] body) {
        if (body == null || body.length < HEADER_BYTES) {
            return -1;
        }
        long sequence = ByteBuffer.wrap(body).getLong(Long.BYTES);
        return sequence < 0 || sequence > Integer.MAX_VALUE ? -1 : (int) sequence;
    }

    /** The broker accepted {@code sequence} for delivery (SEND_OK, and committed for a transaction). */
    synchronized void expect(int sequence) {
        expected.set(sequence);
    }

    /** Records a receipt; returns whether it is the first of {@code sequence} (a later one is a duplicate). */
    synchronized boolean receive(int sequence) {
        if (received.get(sequence)) {
            duplicates++;
            return false;
        }
        received.set(sequence);
        return true;
    }

    synchronized long expectedCount() {
        return expected.cardinality();
    }

    /** Distinct sequence numbers received. */
    synchronized long receivedCount() {
        return received.cardinality();
    }

    /** Expected but not (yet) received. */
    synchronized long lost() {
        BitSet missing = (BitSet) expected.clone();
        missing.andNot(received);
        return missing.cardinality();
    }

    /** Received but never expected: stored although the send failed, or delivered although rolled back. */
    synchronized long unexpected() {
        BitSet extra = (BitSet) received.clone();
        extra.andNot(expected);
        return extra.cardinality();
    }

    synchronized long duplicates() {
        return duplicates;
    }

    /** Waits, checking every 200 ms, until nothing expected is missing or {@code timeoutMillis} passed. */
    void awaitReceipts(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (lost() > 0 && System.nanoTime() - deadline < 0) {
            Pacing.pause(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    /**
     * Puts the audit figures into a report's extras: sent, received, lost, duplicates, unexpected, and
     * moved (each message stored once and delivered once, as the client sees it; +1 keeps it above 0).
     */
    synchronized void putFigures(java.util.Map<String, String> extras) {
        extras.put("sent", Long.toString(expectedCount()));
        extras.put("received", Long.toString(receivedCount()));
        extras.put("lost", Long.toString(lost()));
        extras.put("duplicates", Long.toString(duplicates()));
        extras.put("unexpected", Long.toString(unexpected()));
        extras.put("moved", Long.toString(expectedCount() + receivedCount() + 1));
    }
}
