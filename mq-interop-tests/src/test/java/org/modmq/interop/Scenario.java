package org.modmq.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

/**
 * The steps both interoperability scenarios share: topic creation, a burst from the stock producer and
 * the bounded wait until the slave's CommitLog ends where the master's does. Stateless.
 */
final class Scenario {

    /** Messages per burst: about 2.6 MiB of CommitLog, so three 1 MiB segment files. */
    static final int MESSAGES = 2_000;
    private static final Duration FIRST_CATCH_UP = Duration.ofSeconds(60);
    private static final Duration CATCH_UP = Duration.ofSeconds(30);

    private Scenario() {
    }

    /** Creates {@code topic} with 4 queues on the master (retrying while it starts up). */
    static void createTopic(StockAdmin admin, String masterAddr, String topic) {
        Await.value("the master at " + masterAddr + " to take " + topic, Duration.ofSeconds(30), () -> {
            admin.createTopic(masterAddr, topic, 4);
            return Boolean.TRUE;
        });
    }

    /**
     * Sends one message and waits until the slave holds it (so the slave is connected and streaming from
     * offset 0: an empty slave is otherwise streamed only the master's last segment file), then sends
     * the rest of the burst and waits until the slave's {@code commitLogMaxOffset} equals the master's.
     */
    static Burst sendBurst(StockAdmin admin, String namesrvAddr, String topic, String masterAddr, String slaveAddr,
            Phases phases) {
        Await.value("a route of " + topic + " with a master", Duration.ofSeconds(30),
                () -> admin.routeBrokers(topic).containsKey(0L) ? Boolean.TRUE : null);
        phases.done("route of " + topic + " published");
        try (StockTraffic traffic = new StockTraffic(namesrvAddr, topic)) {
            traffic.send(1);
            awaitCaughtUp(admin, masterAddr, slaveAddr, FIRST_CATCH_UP);
            phases.done("slave holds the first message");
            traffic.send(MESSAGES - 1);
            phases.done((MESSAGES - 1) + " messages sent");
            long masterMax = awaitCaughtUp(admin, masterAddr, slaveAddr, CATCH_UP);
            phases.done("slave caught up at " + masterMax);
            assertThat(masterMax).as("bytes written; must span several segment files")
                    .isGreaterThan(2L * BrokerSettings.COMMIT_LOG_FILE_SIZE);
            return new Burst(traffic.sent(), masterMax);
        }
    }

    /** Waits until the slave's commitLogMaxOffset equals the master's; returns that offset. */
    private static long awaitCaughtUp(StockAdmin admin, String masterAddr, String slaveAddr, Duration timeout) {
        long masterMax = admin.commitLogMaxOffset(masterAddr);
        Await.value("the slave at " + slaveAddr + " to reach the master's offset " + masterMax, timeout, () -> {
            long slaveMax = admin.commitLogMaxOffset(slaveAddr);
            if (slaveMax > masterMax) {
                throw new AssertionError("slave ahead of master: " + slaveMax + " > " + masterMax);
            }
            return slaveMax == masterMax ? Boolean.TRUE : null;
        });
        return masterMax;
    }

    /**
     * What a burst left behind.
     *
     * @param sent      every message, in sending order
     * @param masterMax the master's (and slave's) commitLogMaxOffset afterwards
     */
    record Burst(List<StockTraffic.Sent> sent, long masterMax) {
        Burst {
            sent = List.copyOf(sent);
        }
    }
}
