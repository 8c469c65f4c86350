package org.modmq.compat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.hook.SendMessageContext;
import org.apache.rocketmq.client.hook.SendMessageHook;
import org.apache.rocketmq.client.producer.SendStatus;

/**
 * Every attempt a stock producer makes, retries included, as its send hook sees them: which broker it
 * went to, when it started and ended ({@link System#nanoTime()}) and how it ended. Register it with
 * {@code producer.getDefaultMQProducerImpl().registerSendMessageHook}; for synchronous sends only (the hook
 * runs before and after each attempt on the sending thread). Thread-safe.
 */
final class SendAttempts implements SendMessageHook {

    /**
     * One attempt.
     *
     * @param outcome the send status name, or the exception's class name (with the broker's response code)
     */
    record Attempt(String brokerAddr, long startedNanos, long endedNanos, String outcome) {

        boolean acknowledged() {
            return SendStatus.SEND_OK.name().equals(outcome);
        }
    }

    private final ThreadLocal<Long> started = new ThreadLocal<>();
    private final List<Attempt> attempts = new CopyOnWriteArrayList<>();

    @Override
    public String hookName() {
        return "compat-send-attempts";
    }

    @Override
    public void sendMessageBefore(SendMessageContext context) {
        started.set(System.nanoTime());
    }

    @Override
    public void sendMessageAfter(SendMessageContext context) {
        long ended = System.nanoTime();
        Long began = started.get();
        Exception error = context.getException();
        String outcome = error instanceof MQBrokerException broker
                ? error.getClass().getSimpleName() + "_" + broker.getResponseCode()
                : error != null ? error.getClass().getSimpleName()
                : context.getSendResult() == null ? "no result" : context.getSendResult().getSendStatus().name();
        attempts.add(new Attempt(String.valueOf(context.getBrokerAddr()), began == null ? ended : began, ended, outcome));
    }

    /** A snapshot of the attempts so far. */
    List<Attempt> all() {
        return List.copyOf(attempts);
    }

    /** The attempts that went to {@code brokerAddr}. */
    List<Attempt> to(String brokerAddr) {
        return attempts.stream().filter(a -> a.brokerAddr().equals(brokerAddr)).toList();
    }
}
