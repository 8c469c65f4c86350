package org.modmq.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.modmq.testkit.process.Await;

/**
 * The steps the interoperability scenarios share: topic creation, bursts from the stock producer, the
 * bounded wait until the slave's CommitLog ends where the master's does and, in controller mode, until a
 * replica follows its new master in the controllers' SyncStateSet. Stateless.
 */
final class Scenario {

    /** Messages per burst: about 2.6 MiB of CommitLog, so three 1 MiB segment files. */
    static final int MESSAGES = 2_000;
    private static final Duration FIRST_CATCH_UP = Duration.ofSeconds(60);
    private static final Duration CATCH_UP = Duration.ofSeconds(30);

    private Scenario() {
    }

    /**
     * Waits until the master is registered with the name server, then creates {@code topic} with 4
     * queues on it, so that the master announces the topic with an incremental registration rather
     * than at its next periodic one (30 s later).
     */
    static void createTopic(StockAdmin admin, String masterAddr, String topic) {
        Await.value("the master at " + masterAddr + " to register", Duration.ofSeconds(60),
                () -> masterAddr.equals(admin.registeredBrokers(BrokerSettings.BROKER_NAME).get(0L)) ? Boolean.TRUE : null);
        Await.value("the master at " + masterAddr + " to take " + topic, Duration.ofSeconds(30), () -> {
            admin.createTopic(masterAddr, topic, 4);
            return Boolean.TRUE;
        });
    }

    /**
     * Waits until the name server routes {@code topic} to a master. Starting the slave only then means
     * its first registration already learns the master's HA address (a stock master registers about
     * 10 s after it starts, the next registrations come every 30 s), and the producer finds the route.
     */
    static void awaitRoute(StockAdmin admin, String topic) {
        Await.value("a route of " + topic + " with a master", Duration.ofSeconds(60),
                () -> admin.routeBrokers(topic).containsKey(0L) ? Boolean.TRUE : null);
    }

    /**
     * Sends one message and waits until the slave holds it (so the slave is connected and streaming from
     * offset 0: an empty slave is otherwise streamed only the master's last segment file), then sends
     * the rest of the burst and waits until the slave's {@code commitLogMaxOffset} equals the master's.
     */
    static Burst sendBurst(StockAdmin admin, String namesrvAddr, String topic, String masterAddr, String slaveAddr,
            Phases phases) {
        try (StockTraffic traffic = new StockTraffic(namesrvAddr, topic, 1L)) {
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

    /**
     * Sends {@code count} more messages (bodies seeded by {@code seed}) and waits until the slave's
     * {@code commitLogMaxOffset} equals the master's.
     */
    static Burst sendMore(StockAdmin admin, String namesrvAddr, String topic, String masterAddr, String slaveAddr,
            int count, long seed, Phases phases) {
        try (StockTraffic traffic = new StockTraffic(namesrvAddr, topic, seed)) {
            traffic.send(count);
            phases.done(count + " more messages sent");
            long masterMax = awaitCaughtUp(admin, masterAddr, slaveAddr, CATCH_UP);
            phases.done("slave caught up at " + masterMax);
            return new Burst(traffic.sent(), masterMax);
        }
    }

    /**
     * Waits until the broker at {@code masterAddr} is id 0 in {@code topic}'s route, then sends {@code count}
     * messages (bodies seeded by {@code seed}), each of which must be stored.
     */
    static Burst sendToMaster(StockAdmin admin, String namesrvAddr, String topic, String masterAddr, int count,
            long seed) {
        Await.until(masterAddr + " registered as id 0", Duration.ofSeconds(60),
                () -> masterAddr.equals(admin.routeBrokers(topic).get(0L)));
        try (StockTraffic traffic = new StockTraffic(namesrvAddr, topic, seed)) {
            traffic.send(count);
            return new Burst(traffic.sent(), admin.commitLogMaxOffset(masterAddr));
        }
    }

    /**
     * Controller mode: waits until the replica holds the master's whole log and the controllers' SyncStateSet
     * of master epoch {@code epoch} holds both.
     *
     * @return the master's (and replica's) log end
     */
    static long awaitFollowing(StockAdmin admin, ControllerView view, String masterAddr, String replicaAddr,
            int epoch) {
        long end = admin.commitLogMaxOffset(masterAddr);
        Await.until(replicaAddr + " to hold " + masterAddr + "'s log up to " + end, FIRST_CATCH_UP,
                () -> admin.commitLogMaxOffset(replicaAddr) == end);
        BrokerReplicasInfo.ReplicasInfo info = view.awaitInSync(2, FIRST_CATCH_UP);
        assertThat(info.getMasterAddress()).as("the master").isEqualTo(masterAddr);
        assertThat(info.getMasterEpoch()).as("the master epoch").isEqualTo(epoch);
        return end;
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

        /** This burst followed by {@code later}: every message, and the later burst's end offset. */
        Burst then(Burst later) {
            List<StockTraffic.Sent> all = new ArrayList<>(sent);
            all.addAll(later.sent());
            return new Burst(all, later.masterMax());
        }
    }
}
