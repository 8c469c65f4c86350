package org.modmq.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.body.KVTable;

/**
 * Reads and prepares one broker set before a fault: waits until the name server lists the expected
 * number of brokers with a master, creates the topic on every one of them (so that a new master
 * already knows it, whatever the replicas' metadata sync period), stores a first message, then waits
 * until the controller's SyncStateSet holds every broker (when a controller is given) and every replica's
 * CommitLog has reached the master's end (GET_BROKER_RUNTIME_INFO). Used by the command thread only.
 */
final class BrokerSetProbe {

    /** What the set looked like once healthy. */
    record Health(String master, int brokers, int syncStateSet, int masterEpoch, long waitedMillis) {
    }

    private static final long REQUEST_TIMEOUT_MILLIS = 3_000;
    private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final String AUTO_CREATE_TOPIC = "TBW102";
    private static final String MAX_OFFSET = "commitLogMaxOffset";

    private final MQClientAPIImpl api;
    private final RouteLog routes;
    private final String brokerName;
    private final String controller;

    /** @param controller a controller's address, or {@code null} when the SyncStateSet is not checked */
    BrokerSetProbe(MQClientAPIImpl api, RouteLog routes, String brokerName, String controller) {
        this.api = Objects.requireNonNull(api, "api");
        this.routes = Objects.requireNonNull(routes, "routes");
        this.brokerName = Objects.requireNonNull(brokerName, "brokerName");
        this.controller = controller;
    }

    /**
     * Waits until the set is healthy as described above.
     *
     * @param brokers   brokers expected in the set
     * @param producer  a started producer, for the first message
     * @throws BenchException if the set is not healthy within {@code timeoutMillis}; the message says
     *                        which step did not complete
     */
    Health awaitHealthy(int brokers, String topic, int queues, DefaultMQProducer producer, long timeoutMillis)
            throws BenchException, InterruptedException {
        long started = System.nanoTime();
        long deadline = started + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        BrokerSetView view = routes.awaitLatest(v -> v.addresses().size() >= brokers && v.master() != null, deadline).orElseThrow(() -> new BenchException("the name server did not list " + brokers
                + " brokers of " + brokerName + " with a master within " + timeoutMillis + " ms; last seen: "
                + routes.latest().map(BrokerSetView::toString).orElse("nothing")));
        createTopic(topic, queues, view.addresses().values(), deadline);
        BenchClients.sendUntilStored(producer, topic, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        String lastProblem = "not checked";
        while (System.nanoTime() - deadline < 0) {
            BrokerSetView now = routes.latest().orElse(view);
            lastProblem = problem(now, brokers);
            if (lastProblem == null) {
                Optional<BrokerReplicasInfo.ReplicasInfo> info = replicasInfo();
                return new Health(now.master(), now.addresses().size(),
                        info.map(i -> i.getInSyncReplicas().size()).orElse(-1),
                        info.map(BrokerReplicasInfo.ReplicasInfo::getMasterEpoch).orElse(-1),
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            }
            Pacing.pause(RETRY_NANOS);
        }
        throw new BenchException(brokerName + " was not healthy within " + timeoutMillis + " ms: " + lastProblem);
    }

    /** What keeps the set from being healthy, or {@code null} when nothing does. */
    private String problem(BrokerSetView view, int brokers) throws InterruptedException {
        if (view.master() == null || view.addresses().size() < brokers) {
            return "the name server lists " + view;
        }
        if (controller != null) {
            Optional<BrokerReplicasInfo.ReplicasInfo> info = replicasInfo();
            if (info.isEmpty()) {
                return "no SyncStateSet from the controller " + controller;
            }
            if (info.get().getInSyncReplicas().size() < brokers) {
                return "SyncStateSet has " + info.get().getInSyncReplicas().size() + " of " + brokers + " brokers";
            }
            if (!view.master().equals(info.get().getMasterAddress())) {
                return "the controller's master " + info.get().getMasterAddress() + " is not the name server's "
                        + view.master();
            }
        }
        long masterOffset = maxOffset(view.master());
        if (masterOffset <= 0) {
            return "no commitLogMaxOffset from the master " + view.master();
        }
        for (Map.Entry<Long, String> broker : view.addresses().entrySet()) {
            if (broker.getKey() != 0L && maxOffset(broker.getValue()) < masterOffset) {
                return "replica " + broker.getValue() + " is behind the master (" + masterOffset + ")";
            }
        }
        return null;
    }

    /** The controller's view of the set (master, epoch, SyncStateSet), or empty without a controller or answer. */
    Optional<BrokerReplicasInfo.ReplicasInfo> replicasInfo() throws InterruptedException {
        if (controller == null) {
            return Optional.empty();
        }
        try {
            BrokerReplicasInfo info = api.getInSyncStateData(controller, List.of(brokerName));
            return Optional.ofNullable(info == null ? null : info.getReplicasInfoTable().get(brokerName));
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    private void createTopic(String topic, int queues, Iterable<String> addresses, long deadline)
            throws BenchException, InterruptedException {
        TopicConfig config = new TopicConfig(topic, queues, queues, PermName.PERM_READ | PermName.PERM_WRITE);
        Set<String> pending = new HashSet<>();
        addresses.forEach(pending::add);
        Exception last = null;
        while (!pending.isEmpty() && System.nanoTime() - deadline < 0) {
            for (String address : new ArrayList<>(pending)) {
                try {
                    api.createTopic(address, AUTO_CREATE_TOPIC, config, REQUEST_TIMEOUT_MILLIS);
                    pending.remove(address);
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    last = e;
                }
            }
            if (!pending.isEmpty()) {
                Pacing.pause(RETRY_NANOS);
            }
        }
        if (!pending.isEmpty()) {
            throw new BenchException("could not create " + topic + " on " + pending, last);
        }
    }

    /** The broker's {@code commitLogMaxOffset}, or -1 while it cannot be read. */
    long maxOffset(String address) throws InterruptedException {
        try {
            KVTable table = api.getBrokerRuntimeInfo(address, REQUEST_TIMEOUT_MILLIS);
            String value = table.getTable().get(MAX_OFFSET);
            return value == null ? -1 : Long.parseLong(value.trim());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return -1;
        }
    }
}
