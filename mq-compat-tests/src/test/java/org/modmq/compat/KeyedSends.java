package org.modmq.compat;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.modmq.testkit.process.Await;

/**
 * A sync-send load for failover tests: N threads share one stock producer, each sending one message at a
 * time, every message with its own key ({@code prefix + sequence}). Remembers which keys got SEND_OK, which
 * broker stored each (the store host in the offset message id) and when the answer came, and counts every
 * other outcome by name. A thread pauses briefly after a failed send and stops at {@link #close()} or after
 * {@link #MAX_RUN}, whichever comes first.
 *
 * <p>{@link #start} and {@link #close} from the test thread; the getters from any thread.
 */
final class KeyedSends implements AutoCloseable {

    /**
     * An acknowledged send: who stored it, when it was started and when the answer arrived (both
     * {@link System#nanoTime()}).
     */
    record Ack(String storeHost, long startedNanos, long answeredNanos) {
    }

    /** No load runs longer than this, whatever the test does. */
    static final Duration MAX_RUN = Duration.ofMinutes(3);
    private static final long FAIL_PAUSE_MILLIS = 20;
    private static final String THREAD_NAME = "compat-keyed-send";
    private static final long STOP_TIMEOUT_SECONDS = 30;

    private final DefaultMQProducer producer;
    private final String topic;
    private final String prefix;
    private final byte[] body;
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<String, Ack> acknowledged = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final AtomicReference<Throwable> lastError = new AtomicReference<>();
    private ExecutorService threads;

    /** @param prefix starts every key of this load; unique per test */
    KeyedSends(DefaultMQProducer producer, String topic, String prefix, int bodySize) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.body = "x".repeat(bodySize).getBytes(StandardCharsets.UTF_8);
    }

    /** Starts {@code count} sending threads. */
    void start(int count) {
        if (threads != null) {
            throw new IllegalStateException("already started");
        }
        long deadline = System.nanoTime() + MAX_RUN.toNanos();
        threads = Executors.newFixedThreadPool(count, runnable -> {
            Thread thread = new Thread(runnable, THREAD_NAME);
            thread.setDaemon(true);
            return thread;
        });
        for (int i = 0; i < count; i++) {
            threads.execute(() -> sendUntilStopped(deadline));
        }
    }

    private void sendUntilStopped(long deadline) {
        while (running.get() && System.nanoTime() - deadline < 0) {
            if (!sendOne()) {
                try {
                    Thread.sleep(FAIL_PAUSE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private boolean sendOne() {
        String key = prefix + sequence.getAndIncrement();
        Message message = new Message(topic, "failover", key, body);
        long started = System.nanoTime();
        try {
            SendResult result = producer.send(message);
            if (result.getSendStatus() == SendStatus.SEND_OK) {
                acknowledged.put(key, new Ack(storeHost(result), started, System.nanoTime()));
                return true;
            }
            count(result.getSendStatus().name());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running.set(false);
        } catch (Exception | LinkageError e) {
            // An error thrown by the stock client would otherwise end this thread without a trace.
            count(outcomeOf(e));
            lastError.set(e);
        }
        return false;
    }

    /**
     * Waits until {@code condition} holds; on timeout the failure names what was sent and acknowledged
     * then, the last exception a send threw and where each send thread is.
     */
    void await(String what, Duration timeout, BooleanSupplier condition) {
        try {
            Await.until(what, timeout, condition);
        } catch (AssertionError e) {
            StringBuilder message = new StringBuilder(e.getMessage()).append("; ").append(this);
            Throwable last = lastError.get();
            if (last != null) {
                message.append("; last send failure: ").append(last);
            }
            Thread.getAllStackTraces().forEach((thread, stack) -> {
                if (thread.getName().equals(THREAD_NAME)) {
                    message.append("\n").append(thread.getName()).append(" ").append(thread.getState());
                    for (StackTraceElement frame : stack) {
                        message.append("\n\tat ").append(frame);
                    }
                }
            });
            AssertionError failure = new AssertionError(message.toString(), e);
            if (last != null) {
                failure.addSuppressed(last);
            }
            throw failure;
        }
    }

    private void count(String outcome) {
        failures.computeIfAbsent(outcome, k -> new LongAdder()).increment();
    }

    /** The broker ({@code 127.0.0.1:port}) that stored a message, from its offset message id; "" if unknown. */
    static String storeHost(SendResult result) {
        try {
            SocketAddress address = MessageDecoder.decodeMessageId(result.getOffsetMsgId()).getAddress();
            if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
                return inet.getAddress().getHostAddress() + ":" + inet.getPort();
            }
            return String.valueOf(address);
        } catch (UnknownHostException | RuntimeException e) {
            return "";
        }
    }

    /** The innermost RocketMQ exception's class, with the broker's response code where it has one. */
    private static String outcomeOf(Throwable error) {
        Throwable inner = error;
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause.getClass().getName().startsWith("org.apache.rocketmq.")) {
                inner = cause;
            }
        }
        return inner instanceof MQBrokerException broker
                ? inner.getClass().getSimpleName() + "_" + broker.getResponseCode()
                : inner.getClass().getSimpleName();
    }

    /** Whether {@code key} is one of this load's. */
    boolean owns(String key) {
        return key != null && key.startsWith(prefix);
    }

    /** Keys sent so far, acknowledged or not. */
    long issued() {
        return sequence.get();
    }

    /** How many sends got SEND_OK so far. */
    int acknowledgedCount() {
        return acknowledged.size();
    }

    /** How many SEND_OKs came from {@code storeHost}. */
    long acknowledgedBy(String storeHost) {
        return acknowledged.values().stream().filter(ack -> ack.storeHost().equals(storeHost)).count();
    }

    /** A copy of every acknowledged key with who stored it and when. */
    Map<String, Ack> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    /** Counts of the sends that did not end in SEND_OK, by outcome name, sorted. */
    Map<String, Long> failures() {
        Map<String, Long> copy = new TreeMap<>();
        failures.forEach((name, count) -> copy.put(name, count.sum()));
        return copy;
    }

    /** Stops the threads: each finishes the send in hand (bounded by the send timeout and retries). Idempotent. */
    @Override
    public void close() {
        running.set(false);
        if (threads == null) {
            return;
        }
        threads.shutdown();
        try {
            if (!threads.awaitTermination(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                threads.shutdownNow();
                throw new AssertionError("send threads did not stop within " + STOP_TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            threads.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "keyed sends[" + issued() + " issued, " + acknowledgedCount() + " acknowledged, failures "
                + failures() + "]";
    }
}
