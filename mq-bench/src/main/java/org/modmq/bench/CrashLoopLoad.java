package org.modmq.bench;

import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * The crash-loop load: N threads of blocking sends of keyed messages (each key once: a failed send is
 * not sent again, so a duplicate can only come from the broker or the client's own retry), outcomes in
 * a {@link SendLedger}; and, per restart of the broker, the time of the first SEND_OK of a send started
 * after it.
 *
 * <p>{@link #start} once, {@link #close} from the same thread; {@link #restarted} and
 * {@link #firstOkSince} from the command thread. Times are {@link System#nanoTime()} values.
 */
final class CrashLoopLoad implements AutoCloseable {

    private static final long NOT_YET = Long.MAX_VALUE;
    private static final long STOP_TIMEOUT_SECONDS = 30;

    private final DefaultMQProducer producer;
    private final String topic;
    private final byte[] body;
    private final SendLedger ledger;
    private final LoadMeter meter;
    private final long failPauseNanos;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong firstOk = new AtomicLong(NOT_YET);
    private volatile long since = Long.MIN_VALUE;
    private ExecutorService pool;

    CrashLoopLoad(DefaultMQProducer producer, String topic, byte[] body, SendLedger ledger, LoadMeter meter,
                  long failPauseMillis) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.body = body.clone();
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.meter = Objects.requireNonNull(meter, "meter");
        this.failPauseNanos = TimeUnit.MILLISECONDS.toNanos(failPauseMillis);
    }

    void start(int threads) {
        AtomicInteger index = new AtomicInteger();
        pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "crashloop-send-" + index.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        for (int i = 0; i < threads; i++) {
            pool.execute(this::sendLoop);
        }
    }

    /** The broker was (re)started at {@code nanos}: the next SEND_OK of a send started from then on is timed. */
    void restarted(long nanos) {
        firstOk.set(NOT_YET);
        since = nanos;
    }

    /** The answer time of the first SEND_OK of a send started after the last restart, or -1 if none yet. */
    long firstOkSince() {
        long first = firstOk.get();
        return first == NOT_YET ? -1 : first;
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
                ledger.acknowledged(sequence, started, answered, "");
                meter.success(1, body.length, (answered - started) / 1000);
                if (started - since >= 0) {
                    firstOk.compareAndSet(NOT_YET, answered);
                }
                return;
            }
            ledger.refused(started, result.getSendStatus().name());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            ledger.failed(started, e);
        }
        meter.error();
        Pacing.pause(failPauseNanos);
    }

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
