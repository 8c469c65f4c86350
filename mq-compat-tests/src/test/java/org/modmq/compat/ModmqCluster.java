package org.modmq.compat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;

/**
 * A running modmq deployment from the distribution: {@code namesrvCount} name servers
 * ({@code bin/mqnamesrv}) and one master broker ({@code bin/mqbroker}) registered with all of them,
 * every process on free loopback ports with configurations generated under the test's directory,
 * plus a stock admin client and, on first use, one shared stock producer (a stock client takes
 * seconds to shut down, so tests share it rather than start their own). {@link #close()} stops
 * everything it started (idempotent). Used from test threads only.
 */
final class ModmqCluster implements AutoCloseable {

    static final Duration REGISTRATION_TIMEOUT = Duration.ofSeconds(30);

    private final Distribution distribution;
    private final Path workDir;
    private final List<ChildProcess> namesrvs;
    private final Distribution.BrokerConf brokerConf;
    private ChildProcess broker;
    private StockAdmin admin;
    private DefaultMQProducer producer;
    private int produced;

    private ModmqCluster(Distribution distribution, Path workDir, List<ChildProcess> namesrvs,
                         Distribution.BrokerConf brokerConf) {
        this.distribution = distribution;
        this.workDir = workDir;
        this.namesrvs = namesrvs;
        this.brokerConf = brokerConf;
    }

    /**
     * Starts the name servers, then the broker, and waits until every name server lists it.
     *
     * @param brokerOverrides broker.conf settings on top of {@link Distribution#brokerConf}'s
     */
    static ModmqCluster start(Path workDir, int namesrvCount, Map<String, String> brokerOverrides) throws Exception {
        return start(workDir, namesrvCount, brokerOverrides, Map.of());
    }

    /** As {@link #start(Path, int, Map)}, with {@code namesrvOverrides} in every name server's conf. */
    static ModmqCluster start(Path workDir, int namesrvCount, Map<String, String> brokerOverrides,
                              Map<String, String> namesrvOverrides) throws Exception {
        Distribution distribution = Distribution.located();
        List<ChildProcess> namesrvs = new ArrayList<>();
        ModmqCluster cluster = null;
        try {
            for (int i = 0; i < namesrvCount; i++) {
                namesrvs.add(distribution.startNamesrv(workDir, namesrvOverrides));
            }
            Distribution.BrokerConf conf = distribution.brokerConf(workDir, "broker-a",
                    namesrvs.stream().map(ChildProcess::address).toList(), brokerOverrides);
            cluster = new ModmqCluster(distribution, workDir, namesrvs, conf);
            cluster.broker = distribution.startBroker(workDir, conf);
            cluster.admin = StockAdmin.start(cluster.namesrvAddr());
            for (ChildProcess namesrv : namesrvs) {
                cluster.awaitRegisteredWith(namesrv);
            }
            return cluster;
        } catch (Exception | AssertionError e) {
            if (cluster != null) {
                cluster.close();
            } else {
                namesrvs.forEach(ChildProcess::close);
            }
            throw e;
        }
    }

    /** Every name server, {@code ;}-separated, as clients take it. */
    String namesrvAddr() {
        return namesrvs.stream().map(ChildProcess::address).collect(Collectors.joining(";"));
    }

    List<ChildProcess> namesrvs() {
        return namesrvs;
    }

    ChildProcess broker() {
        return broker;
    }

    String brokerName() {
        return brokerConf.brokerName();
    }

    String brokerAddr() {
        return brokerConf.address();
    }

    String clusterName() {
        return "CompatCluster";
    }

    StockAdmin admin() {
        return admin;
    }

    Path workDir() {
        return workDir;
    }

    /**
     * Creates {@code topic} on the broker with the stock admin ({@code UPDATE_AND_CREATE_TOPIC}) and
     * waits until the name servers route it with {@code queues} read and write queues.
     */
    void createTopic(String topic, int queues) throws Exception {
        admin.ext().createAndUpdateTopicConfig(brokerAddr(), new TopicConfig(topic, queues, queues, 6));
        Await.until("route of " + topic + " with " + queues + " queues", REGISTRATION_TIMEOUT, () -> {
            TopicRouteData route = route(topic);
            if (route == null || route.getQueueDatas().size() != 1) {
                return false;
            }
            QueueData queue = route.getQueueDatas().get(0);
            return queue.getReadQueueNums() == queues && queue.getWriteQueueNums() == queues;
        });
    }

    /** The shared producer (group {@code pg_compat}), started on first use. */
    DefaultMQProducer producer() throws MQClientException {
        if (producer == null) {
            producer = StockClients.producer(namesrvAddr(), "pg_compat");
        }
        return producer;
    }

    /**
     * Sends {@code count} messages with {@code tag} synchronously through the shared producer, each
     * with a body unique in this cluster and key {@code key-i}; asserts each was SEND_OK.
     *
     * @return the bodies, in sending order
     */
    List<String> produce(String topic, String tag, int count) throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String body = topic + "-" + tag + "-" + (produced++);
            SendResult result = producer().send(StockClients.message(topic, tag, "key-" + i, body));
            if (result.getSendStatus() != SendStatus.SEND_OK) {
                throw new AssertionError("send of " + body + " answered " + result);
            }
            bodies.add(body);
        }
        return bodies;
    }

    /** The max offset (next offset to be written) of every queue of {@code topic}, from GET_TOPIC_STATS_INFO. */
    Map<MessageQueue, Long> queueEnds(String topic) throws Exception {
        Map<MessageQueue, Long> ends = new HashMap<>();
        admin.ext().examineTopicStats(topic).getOffsetTable()
                .forEach((queue, offset) -> ends.put(queue, offset.getMaxOffset()));
        return ends;
    }

    /**
     * The committed consumer offset of {@code group} for every queue of {@code topic} the broker
     * reports (GET_CONSUME_STATS); empty while it reports none.
     */
    Map<MessageQueue, Long> committedOffsets(String group, String topic) throws Exception {
        Map<MessageQueue, Long> committed = new HashMap<>();
        admin.ext().examineConsumeStats(group).getOffsetTable().forEach((queue, offsets) -> {
            if (queue.getTopic().equals(topic)) {
                committed.put(queue, offsets.getConsumerOffset());
            }
        });
        return committed;
    }

    /** The topic's route from the name servers, or null while there is none. */
    TopicRouteData route(String topic) {
        try {
            return admin.ext().examineTopicRouteInfo(topic);
        } catch (Exception e) {
            return null;
        }
    }

    /** Stops the broker (SIGTERM, bounded), starts it again on the same port and store, and waits for registration. */
    void restartBroker() throws Exception {
        broker.stop(Duration.ofSeconds(20));
        broker = broker.restart(Distribution.START_TIMEOUT);
        for (ChildProcess namesrv : namesrvs) {
            if (namesrv.isAlive()) {
                awaitRegisteredWith(namesrv);
            }
        }
    }

    /** SIGKILLs the broker (a crash: no shutdown hook runs), starts it again on the same port and store, and waits for registration. */
    void killAndRestartBroker() throws Exception {
        broker.kill();
        broker = broker.restart(Distribution.START_TIMEOUT);
        for (ChildProcess namesrv : namesrvs) {
            if (namesrv.isAlive()) {
                awaitRegisteredWith(namesrv);
            }
        }
    }

    private void awaitRegisteredWith(ChildProcess namesrv) throws Exception {
        try (StockAdmin single = StockAdmin.start(namesrv.address())) {
            Await.until(brokerName() + " registered with " + namesrv, REGISTRATION_TIMEOUT, () -> {
                try {
                    BrokerData data = single.ext().examineBrokerClusterInfo().getBrokerAddrTable().get(brokerName());
                    return data != null && brokerAddr().equals(data.getBrokerAddrs().get(0L));
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    @Override
    public void close() {
        // Clients first (in parallel, each takes seconds), then the broker, then the name servers;
        // none of these close() methods throws.
        StockAdmin startedAdmin = admin;
        DefaultMQProducer startedProducer = producer;
        StockClients.shutdownAll(() -> {
            if (startedAdmin != null) {
                startedAdmin.close();
            }
        }, () -> {
            if (startedProducer != null) {
                startedProducer.shutdown();
            }
        });
        admin = null;
        producer = null;
        if (broker != null) {
            broker.close();
        }
        for (int i = namesrvs.size() - 1; i >= 0; i--) {
            namesrvs.get(i).close();
        }
    }

    @Override
    public String toString() {
        return "cluster[" + namesrvAddr() + ", broker " + brokerAddr() + ", in " + workDir + "]";
    }

    Distribution distribution() {
        return distribution;
    }
}
