package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.broker.BrokerClient.props;
import static org.modmq.broker.BrokerClient.pull;
import static org.modmq.broker.BrokerClient.sendV2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modmq.api.spi.replication.ReplicatedLog;
import org.modmq.broker.data.PullMessageProcessor;
import org.modmq.broker.testing.Await;
import org.modmq.namesrv.NamesrvConfig;
import org.modmq.namesrv.NamesrvServer;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * Master and slave of one broker set in process, with an in-process name server, for both replication
 * strategies: what SYNC_MASTER and ASYNC_MASTER answer, byte-identical logs, the slave learning its
 * master from the registration answer, reads and offset commits on the slave, a slave restart.
 */
@Tag("integration")
@Timeout(90)
class ReplicationTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String TOPIC = "TopicHa";
    private static final int SUB = PullMessageProcessor.FLAG_SUBSCRIPTION;

    @TempDir
    Path dir;

    private NamesrvServer namesrv;
    private RemotingClient remoting;
    private final List<HaNode> nodes = new ArrayList<>();
    private final int masterPort = HaNode.freePort();
    private final int masterHaPort = HaNode.freePort();
    private final int slavePort = HaNode.freePort();
    private final int slaveHaPort = HaNode.freePort();

    @BeforeEach
    void startNameServer() {
        namesrv = new NamesrvServer(NamesrvConfig.defaults().withListenPort(0)).start();
        remoting = new RemotingClient(RemotingClientConfig.defaults());
    }

    @AfterEach
    void stop() {
        remoting.close();
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
        namesrv.close();
    }

    private HaNode master(String strategy, String role, String... keyValues) {
        HaNode node = HaNode.start(dir.resolve("master"), masterPort, masterHaPort, namesrv.address(),
                concat(new String[] {"brokerRole", role, "haStrategy", strategy, "syncFlushTimeout", "1500"},
                        keyValues));
        nodes.add(node);
        createTopic(node);
        return node;
    }

    private HaNode slave(String strategy, String... keyValues) {
        HaNode node = HaNode.start(dir.resolve("slave"), slavePort, slaveHaPort, namesrv.address(),
                concat(new String[] {"brokerRole", "SLAVE", "brokerId", "1", "haStrategy", strategy}, keyValues));
        nodes.add(node);
        // Stands in for the metadata sync of a later change: the slave serves the topic it replicates.
        createTopic(node);
        return node;
    }

    private static String[] concat(String[] first, String[] second) {
        return Stream.concat(Stream.of(first), Stream.of(second)).toArray(String[]::new);
    }

    private RemotingCommand invoke(HaNode node, RemotingCommand request) {
        return remoting.invoke(node.address(), request, Duration.ofSeconds(10)).join();
    }

    private void createTopic(HaNode node) {
        RemotingCommand created = invoke(node, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC)
                .putExtField("topic", TOPIC).putExtField("readQueueNums", 4).putExtField("writeQueueNums", 4)
                .putExtField("perm", 6));
        assertThat(created.code()).isEqualTo(ResponseCode.SUCCESS);
    }

    private RemotingCommand send(HaNode node, String body) {
        return invoke(node, sendV2(TOPIC, 0, props("UNIQ_KEY", "ID-" + body, "WAIT", "true", "TAGS", "T"),
                body.getBytes(StandardCharsets.UTF_8)));
    }

    private static void awaitSlaveConnected(HaNode master) {
        Await.until("a slave connected to the master", WAIT,
                () -> !master.binding().store().replicas().isEmpty());
    }

    private static void awaitCaughtUp(HaNode master, HaNode slave) {
        Await.until("the slave holding the master's whole log", WAIT,
                () -> slave.commitLogMax() == master.commitLogMax());
    }

    /** Both logs hold the same bytes, read through the store and as files on disk. */
    private static void assertIdenticalLogs(HaNode master, HaNode slave) throws IOException {
        ReplicatedLog left = master.binding().store().replicatedLog();
        ReplicatedLog right = slave.binding().store().replicatedLog();
        assertThat(right.maxOffset()).isEqualTo(left.maxOffset());
        long offset = Math.max(left.minOffset(), right.minOffset());
        while (offset < left.maxOffset()) {
            ByteBuf a = left.read(offset, 64 * 1024);
            ByteBuf b = right.read(offset, a.readableBytes());
            try {
                assertThat(ByteBufUtil.getBytes(b)).as("log bytes at %d", offset).isEqualTo(ByteBufUtil.getBytes(a));
                offset += a.readableBytes();
            } finally {
                a.release();
                b.release();
            }
        }
    }

    private static List<Path> commitLogFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.list(root.resolve("commitlog"))) {
            return files.sorted().toList();
        }
    }

    private void assertIdenticalFiles() throws IOException {
        List<Path> masterFiles = commitLogFiles(dir.resolve("master"));
        List<Path> slaveFiles = commitLogFiles(dir.resolve("slave"));
        assertThat(slaveFiles).extracting(Path::getFileName).containsExactlyElementsOf(
                masterFiles.stream().map(Path::getFileName).toList());
        for (int i = 0; i < masterFiles.size(); i++) {
            assertThat(Files.mismatch(masterFiles.get(i), slaveFiles.get(i))).as("%s", masterFiles.get(i))
                    .isEqualTo(-1L);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pull", "push"})
    void syncMasterAnswersOnlyOnceTheSlaveHoldsTheMessage(String strategy) throws IOException {
        HaNode master = master(strategy, "SYNC_MASTER");
        HaNode slave = slave(strategy);
        awaitSlaveConnected(master);

        for (int i = 0; i < 200; i++) {
            RemotingCommand sent = send(master, "sync-" + i);
            assertThat(sent.code()).as("send %d: %s", i, sent.remark()).isEqualTo(ResponseCode.SUCCESS);
            // Sends are sequential: the master's log ends where message i ends.
            assertThat(slave.commitLogMax()).as("slave log end when send %d was answered", i)
                    .isGreaterThanOrEqualTo(master.commitLogMax());
        }
        assertThat(slave.commitLogMax()).isEqualTo(master.commitLogMax());
        assertIdenticalLogs(master, slave);
        assertIdenticalFiles();

        // The slave learned the master's HA address from the name server (no haMasterAddress configured).
        assertThat(slave.broker().registration().orElseThrow().masterHaAddr())
                .contains("127.0.0.1:" + masterHaPort);
        assertThat(slave.broker().registration().orElseThrow().masterAddr()).contains(master.address());

        // The slave serves the same records, and refuses sends.
        RemotingCommand fromMaster = invoke(master, pull("g1", TOPIC, 0, 0, SUB, 0, 0, "*"));
        RemotingCommand fromSlave = invoke(slave, pull("g1", TOPIC, 0, 0, SUB, 0, 0, "*"));
        assertThat(fromSlave.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(fromSlave.body()).isEqualTo(fromMaster.body());
        assertThat(BrokerClient.decode(fromSlave.body())).hasSize(32).first()
                .extracting(BrokerClient.Record::body).isEqualTo("sync-0");
        assertThat(send(slave, "refused").code()).isEqualTo(ResponseCode.SERVICE_NOT_AVAILABLE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"pull", "push"})
    void slaveRegistersUnderItsIdAndTheRouteShowsBoth(String strategy) {
        HaNode master = master(strategy, "ASYNC_MASTER");
        HaNode slave = slave(strategy);
        RemotingCommand route = remoting.invoke(namesrv.address(), RemotingCommand.request(
                RequestCode.GET_ROUTEINFO_BY_TOPIC).putExtField("topic", TOPIC), Duration.ofSeconds(10)).join();
        assertThat(route.code()).isEqualTo(ResponseCode.SUCCESS);
        String json = new String(route.body(), StandardCharsets.UTF_8);
        assertThat(json).containsPattern("\"?0\"?:\"" + master.address() + "\"")
                .containsPattern("\"?1\"?:\"" + slave.address() + "\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pull", "push"})
    void asyncMasterAnswersAtOnceAndARestartedSlaveCatchesUp(String strategy) throws Exception {
        HaNode master = master(strategy, "ASYNC_MASTER");
        HaNode slave = slave(strategy);
        awaitSlaveConnected(master);

        AtomicInteger sent = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Integer> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread producer = new Thread(() -> {
            while (running.get()) {
                int n = sent.getAndIncrement();
                RemotingCommand answer = send(master, "async-" + n);
                if (answer.code() != ResponseCode.SUCCESS) {
                    failures.add(answer.code());
                }
            }
        }, "test-producer");
        producer.start();
        try {
            Await.until("100 sends", WAIT, () -> sent.get() >= 100);
            slave.close();
            nodes.remove(slave);
            int stoppedAt = sent.get();
            Await.until("100 sends while the slave is down", WAIT, () -> sent.get() >= stoppedAt + 100);
            slave = slave(strategy);
            int restartedAt = sent.get();
            Await.until("100 sends after the restart", WAIT, () -> sent.get() >= restartedAt + 100);
        } finally {
            running.set(false);
            producer.join(10_000);
        }
        assertThat(failures).as("ASYNC_MASTER answers every send with SUCCESS").isEmpty();
        awaitCaughtUp(master, slave);
        assertIdenticalLogs(master, slave);
        assertIdenticalFiles();
        assertThat(slave.binding().store().getMaxOffsetInQueue(TOPIC, 0))
                .isEqualTo(master.binding().store().getMaxOffsetInQueue(TOPIC, 0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pull", "push"})
    void syncMasterAnswersSlaveNotAvailableWithoutASlaveAndKeepsTheMessage(String strategy) {
        HaNode master = master(strategy, "SYNC_MASTER");
        RemotingCommand alone = send(master, "alone");
        assertThat(alone.code()).isEqualTo(ResponseCode.SLAVE_NOT_AVAILABLE);
        assertThat(alone.extField("msgId")).isNotEmpty();

        HaNode slave = slave(strategy);
        awaitSlaveConnected(master);
        assertThat(send(master, "with-slave").code()).isEqualTo(ResponseCode.SUCCESS);
        slave.close();
        nodes.remove(slave);
        Await.until("the master noticing the slave left", WAIT,
                () -> master.binding().store().replicas().isEmpty());
        RemotingCommand gone = send(master, "slave-gone");
        assertThat(gone.code()).isEqualTo(ResponseCode.SLAVE_NOT_AVAILABLE);

        RemotingCommand pulled = invoke(master, pull("g1", TOPIC, 0, 0, SUB, 0, 0, "*"));
        assertThat(BrokerClient.decode(pulled.body())).extracting(BrokerClient.Record::body)
                .containsExactly("alone", "with-slave", "slave-gone");
    }

    @Test
    void syncMasterAnswersFlushSlaveTimeoutWhenTheSlaveNeverAcknowledges() throws IOException {
        HaNode master = master("pull", "SYNC_MASTER");
        try (Socket fake = new Socket(InetAddress.getLoopbackAddress(), masterHaPort)) {
            OutputStream out = fake.getOutputStream();
            // One report of offset 0 (docs/protocol.md section 12.2), then silence: the master streams, nobody acks.
            out.write(ByteBuffer.allocate(8).putLong(0).array());
            out.flush();
            awaitSlaveConnected(master);
            long started = System.nanoTime();
            RemotingCommand answer = send(master, "never-acked");
            long tookMillis = (System.nanoTime() - started) / 1_000_000;
            assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.FLUSH_SLAVE_TIMEOUT);
            assertThat(tookMillis).isBetween(1_000L, 8_000L);
        }
        RemotingCommand pulled = invoke(master, pull("g1", TOPIC, 0, 0, SUB, 0, 0, "*"));
        assertThat(BrokerClient.decode(pulled.body())).extracting(BrokerClient.Record::body)
                .containsExactly("never-acked");
    }

    @Test
    void pullsAreSentToTheSlaveWhenBehindAndBackToTheMasterFromABehindSlave() {
        HaNode master = master("pull", "ASYNC_MASTER", "slaveReadEnable", "true", "accessMessageInMemoryMaxRatio", "0");
        HaNode slave = slave("pull", "slaveReadEnable", "true", "accessMessageInMemoryMaxRatio", "100");
        awaitSlaveConnected(master);
        for (int i = 0; i < 5; i++) {
            assertThat(send(master, "r-" + i).code()).isEqualTo(ResponseCode.SUCCESS);
        }
        awaitCaughtUp(master, slave);

        // Master: everything counts as cold with a 0 % in-memory share, so the consumer goes to slave 1.
        RemotingCommand fromMaster = invoke(master, pull("g1", TOPIC, 0, 0, SUB, 0, 0, "*"));
        assertThat(fromMaster.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(fromMaster.extField("suggestWhichBrokerId")).isEqualTo("1");

        // Slave: a consumer that is not behind is sent back to the master.
        RemotingCommand fromSlave = invoke(slave, pull("g1", TOPIC, 0, 0, SUB, 0, 0, "*"));
        assertThat(fromSlave.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(fromSlave.extField("suggestWhichBrokerId")).isEqualTo("0");
        assertThat(fromSlave.body()).isEqualTo(fromMaster.body());

        // Slave: an offset beyond what it holds (it is behind) sends the consumer to the master at once.
        RemotingCommand ahead = invoke(slave, pull("g1", TOPIC, 0, 1_000, SUB, 0, 0, "*"));
        assertThat(ahead.code()).isEqualTo(ResponseCode.PULL_RETRY_IMMEDIATELY);
        assertThat(ahead.extField("suggestWhichBrokerId")).isEqualTo("0");
        assertThat(ahead.extField("nextBeginOffset")).isEqualTo("1000");

        // The slave stores offset commits locally (the client commits there when the master is gone).
        RemotingCommand commit = invoke(slave, RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET)
                .putExtField("consumerGroup", "g1").putExtField("topic", TOPIC).putExtField("queueId", 0)
                .putExtField("commitOffset", 3));
        assertThat(commit.code()).isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand query = invoke(slave, RemotingCommand.request(RequestCode.QUERY_CONSUMER_OFFSET)
                .putExtField("consumerGroup", "g1").putExtField("topic", TOPIC).putExtField("queueId", 0));
        assertThat(query.extField("offset")).isEqualTo("3");

        // After the master is gone the slave keeps serving pulls from where the consumer was.
        master.close();
        nodes.remove(master);
        RemotingCommand afterMaster = invoke(slave, pull("g1", TOPIC, 0, 3, SUB, 0, 0, "*"));
        assertThat(BrokerClient.decode(afterMaster.body())).extracting(BrokerClient.Record::body)
                .containsExactly("r-3", "r-4");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pull", "push"})
    void slaveFollowsAConfiguredHaMasterAddressWithoutANameServer(String strategy) throws IOException {
        HaNode master = master(strategy, "ASYNC_MASTER");
        HaNode slave = HaNode.start(dir.resolve("slave"), slavePort, slaveHaPort, "", "brokerRole", "SLAVE",
                "brokerId", "1", "haStrategy", strategy, "haMasterAddress", "127.0.0.1:" + masterHaPort);
        nodes.add(slave);
        for (int i = 0; i < 20; i++) {
            assertThat(send(master, "cfg-" + i).code()).isEqualTo(ResponseCode.SUCCESS);
        }
        awaitCaughtUp(master, slave);
        assertIdenticalLogs(master, slave);
    }

    @Test
    void slaveServesAReplicatedTopicItsMetadataSyncHasNotBroughtYet() {
        HaNode master = master("pull", "ASYNC_MASTER");
        // Without a name server the slave never learns the master's main address, so its metadata sync
        // never runs: the slave knows TopicHa only from the replicated log, as after a master's sudden death.
        HaNode slave = HaNode.start(dir.resolve("slave"), slavePort, slaveHaPort, "", "brokerRole", "SLAVE",
                "brokerId", "1", "haStrategy", "pull", "haMasterAddress", "127.0.0.1:" + masterHaPort);
        nodes.add(slave);
        for (int i = 0; i < 3; i++) {
            assertThat(send(master, "unsynced-" + i).code()).isEqualTo(ResponseCode.SUCCESS);
        }
        awaitCaughtUp(master, slave);
        Await.until("the slave's consume queue built", WAIT,
                () -> slave.binding().store().getMaxOffsetInQueue(TOPIC, 0) == 3);
        master.close();
        nodes.remove(master);

        RemotingCommand pulled = invoke(slave, pull("g1", TOPIC, 0, 0, SUB, 0, 0, "*"));
        assertThat(pulled.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(BrokerClient.decode(pulled.body())).extracting(BrokerClient.Record::body)
                .containsExactly("unsynced-0", "unsynced-1", "unsynced-2");
        RemotingCommand commit = invoke(slave, RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET)
                .putExtField("consumerGroup", "g1").putExtField("topic", TOPIC).putExtField("queueId", 0)
                .putExtField("commitOffset", 3));
        assertThat(commit.code()).isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand query = invoke(slave, RemotingCommand.request(RequestCode.QUERY_CONSUMER_OFFSET)
                .putExtField("consumerGroup", "g1").putExtField("topic", TOPIC).putExtField("queueId", 0));
        assertThat(query.extField("offset")).isEqualTo("3");

        // A topic the slave holds nothing of is still unknown.
        assertThat(invoke(slave, pull("g1", "NoSuchTopic", 0, 0, SUB, 0, 0, "*")).code())
                .isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(invoke(slave, RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET)
                .putExtField("consumerGroup", "g1").putExtField("topic", "NoSuchTopic").putExtField("queueId", 0)
                .putExtField("commitOffset", 1)).code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
    }

    @Test
    void slaveReadDisabledAlwaysSuggestsTheMaster() {
        HaNode master = master("push", "ASYNC_MASTER", "accessMessageInMemoryMaxRatio", "0");
        slave("push");
        awaitSlaveConnected(master);
        assertThat(send(master, "x").code()).isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand pulled = invoke(master, pull("g1", TOPIC, 0, 0, SUB, 0, 0, "*"));
        assertThat(pulled.extField("suggestWhichBrokerId")).isEqualTo("0");
    }
}
