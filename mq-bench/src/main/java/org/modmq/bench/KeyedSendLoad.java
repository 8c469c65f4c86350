package org.modmq.bench;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;

/**
 * The failover load: N threads share one producer, each doing blocking sends of one message at a time,
 * every message with its own key from a {@link SendLedger}. Outcomes go to the ledger (what was
 * acknowledged, and how sends failed) and to a {@link LoadMeter} (throughput and send latency of the
 * measured window). A failed send is followed by a short pause, so a broker that refuses everything is
 * not hammered in a tight loop (which also bounds the failure counts).
 *
 * <p>{@link #start} once, {@link #close} from the same thread; close is idempotent.
 */
final class KeyedSendLoad implements AutoCloseable {

    private static final long STOP_TIMEOUT_SECONDS = 30;

    private final DefaultMQProducer producer;
    private final String topic;
    private final byte[] body;
    private final SendLedger ledger;
    private final LoadMeter meter;
    private final long failPauseNanos;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private ExecutorService pool;

    /**
     * @param producer       a started producer
     * @param failPauseMillis pause after a failed send, in milliseconds (0 for none)
     */
    KeyedSendLoad(DefaultMQProducer producer, String topic, byte[] body, SendLedger ledger, LoadMeter meter,
                  long failPauseMillis) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.body = Objects.requireNonNull(body, "body").clone();
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.meter = Objects.requireNonNull(meter, "meter");
        this.failPauseNanos = TimeUnit.MILLISECONDS.toNanos(failPauseMillis);
    }

    /** Starts {@code threads} sending threads. */
    void start(int threads) {
        if (pool != null) {
            throw new IllegalStateException("already started");
        }
        AtomicInteger index = new AtomicInteger();
        pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "failover-send-" + index.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        for (int i = 0; i < threads; i++) {
            pool.execute(this::sendLoop);
        }
    }

    /**
     * The fault happens at {@code nanos} to {@code master}: the ledger splits outcomes there. Cheap (two
     * volatile writes), so it may run right before the signal.
     */
    void markFault(long nanos, String master) {
        ledger.markFault(nanos, master);
    }

    /** Opens the meter's measured window (clears the latency recorder: not to be done before the signal). */
    void openWindow() {
        meter.beginMeasuring();
    }

    /** Closes the meter's window (the threads keep sending until {@link #close}). */
    void closeWindow() {
        meter.endMeasuring();
    }

    private void sendLoop() {
        try {
            while (running.get()) {
                sendOne();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sendOne() throws InterruptedException {
        long sequence = ledger.nextSequence();
        Message message = new Message(topic, body);
        message.setKeys(ledger.key(sequence));
        long started = System.nanoTime();
        try {
            SendResult result = producer.send(message);
            long answered = System.nanoTime();
            if (result.getSendStatus() == SendStatus.SEND_OK) {
                ledger.acknowledged(sequence, started, answered, storeHost(result));
                meter.success(1, body.length, (answered - started) / 1000);
                return;
            }
            ledger.refused(started, result.getSendStatus().name());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            ledger.failed(started, e);
        }
        meter.error();
        if (failPauseNanos > 0) {
            Pacing.pause(failPauseNanos);
        }
    }

    /** The broker that stored the message, from the offset message id (store host and commit-log offset). */
    private static String storeHost(SendResult result) {
        try {
            SocketAddress address = MessageDecoder.decodeMessageId(result.getOffsetMsgId()).getAddress();
            if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
                return inet.getAddress().getHostAddress() + ":" + inet.getPort();
            }
            return String.valueOf(address);
        } catch (RuntimeException | java.net.UnknownHostException e) {
            return "";
        }
    }

    /**
     * Stops the threads: they finish the send in hand (bounded by the send timeout) and exit. If the
     * calling thread is interrupted meanwhile, the threads are interrupted too and the flag is restored.
     *
     * @throws BenchException if they did not stop within 30 s
     */
    @Override
    public void close() throws BenchException {
        running.set(false);
        if (pool == null || pool.isTerminated()) {
            return;
        }
        pool.shutdown();
        try {
            if (!pool.awaitTermination(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                pool.shutdownNow();
                throw new BenchException("send threads did not stop within " + STOP_TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
