package org.modmq.compat;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;
import org.modmq.testkit.process.TestCertificates;

/**
 * A name server and a master/slave pair of the distribution with {@code tlsMode=enforcing} on every
 * remoting port and {@code haTlsEnable=true} on the HA port, certificates made by the test: the stock
 * 5.3.3 client with {@code setUseTLS(true)} (its default test mode trusts any server certificate)
 * produces and consumes, the slave replicates the master's CommitLog byte for byte over TLS, and plain
 * connections, stock client or raw socket, are closed.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsDistributionTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String BROKER_NAME = "tls-a";
    private static final int SEGMENT = 16 * 1024 * 1024;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static final List<ChildProcess> PROCESSES = new ArrayList<>();
    private static ChildProcess namesrv;
    private static Distribution.BrokerConf master;
    private static Distribution.BrokerConf slave;
    private static StockAdmin admin;

    @BeforeAll
    static void startTlsDeployment() throws Exception {
        TestCertificates certs = TestCertificates.create(workDir.resolve("certs"));
        Map<String, String> tls = new LinkedHashMap<>();
        tls.put("tlsMode", "enforcing");
        tls.put("tls.server.certPath", certs.server().certificate().toString());
        tls.put("tls.server.keyPath", certs.server().privateKey().toString());
        Distribution distribution = Distribution.located();
        namesrv = distribution.startNamesrv(workDir, tls);
        PROCESSES.add(namesrv);
        Map<String, String> brokers = new LinkedHashMap<>(tls);
        brokers.put("haTlsEnable", "true");
        brokers.put("haStrategy", "pull");
        master = distribution.brokerConf(workDir, BROKER_NAME, List.of(namesrv.address()), brokers);
        Map<String, String> slaveSettings = new LinkedHashMap<>(brokers);
        slaveSettings.put("brokerId", "1");
        slaveSettings.put("brokerRole", "SLAVE");
        slave = distribution.brokerConf(workDir, BROKER_NAME + "-s", BROKER_NAME, List.of(namesrv.address()),
                slaveSettings);
        PROCESSES.add(distribution.startBroker(workDir, master));
        PROCESSES.add(distribution.startBroker(workDir, slave));
        admin = StockAdmin.start(namesrv.address(), true);
        awaitRegistered(0L, master.address());
        awaitRegistered(1L, slave.address());
    }

    @AfterAll
    static void stopAll() {
        if (admin != null) {
            admin.close();
        }
        for (int i = PROCESSES.size() - 1; i >= 0; i--) {
            PROCESSES.get(i).close();
        }
    }

    private static void awaitRegistered(long brokerId, String address) {
        Await.until(BROKER_NAME + " id " + brokerId + " registered over TLS", TIMEOUT, () -> {
            try {
                BrokerData data = admin.ext().examineBrokerClusterInfo().getBrokerAddrTable().get(BROKER_NAME);
                return data != null && address.equals(data.getBrokerAddrs().get(brokerId));
            } catch (Exception e) {
                return false;
            }
        });
    }

    @Test
    void stockClientsProduceAndConsumeOverTlsAndTheSlaveReplicatesOverTls() throws Exception {
        String topic = "TlsTopic";
        admin.ext().createAndUpdateTopicConfig(master.address(), new TopicConfig(topic, 2, 2, 6));
        DefaultMQProducer producer = new DefaultMQProducer("pg_tls");
        producer.setNamesrvAddr(namesrv.address());
        producer.setInstanceName(StockClients.instanceName("tls-producer"));
        producer.setUseTLS(true);
        producer.setSendMsgTimeout(5_000);
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer("cg_tls");
        consumer.setNamesrvAddr(namesrv.address());
        consumer.setInstanceName(StockClients.instanceName("tls-consumer"));
        consumer.setUseTLS(true);
        consumer.setAutoCommit(false);
        try {
            producer.start();
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String body = "over-tls-" + i;
                SendResult result = sendWhenRouted(producer, topic, body);
                assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
                sent.add(body);
            }
            consumer.start();
            Collection<MessageQueue> queues = consumer.fetchMessageQueues(topic);
            consumer.assign(queues);
            for (MessageQueue queue : queues) {
                // One run in seven saw the consumer's first broker connection close just after it registered
                // (seek failed with RemotingSendRequestException; the client reconnected at once); cause not
                // found, so the seek may be retried within the bound.
                Await.until("seek of " + queue, TIMEOUT, () -> {
                    try {
                        consumer.seek(queue, 0);
                        return true;
                    } catch (MQClientException e) {
                        return false;
                    }
                });
            }
            List<String> received = new ArrayList<>();
            Await.until("the six messages through a TLS lite pull consumer", TIMEOUT, () -> {
                for (MessageExt message : consumer.poll(500)) {
                    received.add(new String(message.getBody(), UTF_8));
                }
                return received.size() >= sent.size();
            });
            assertThat(received).containsExactlyInAnyOrderElementsOf(sent);
        } finally {
            StockClients.shutdownAll(producer::shutdown, consumer::shutdown);
        }

        long end = Await.value("the slave at the master's CommitLog end", TIMEOUT, () -> {
            try {
                long masterEnd = commitLogMaxOffset(master.address());
                return masterEnd > 0 && masterEnd == commitLogMaxOffset(slave.address()) ? masterEnd : null;
            } catch (Exception e) {
                return null;
            }
        });
        assertThat(StoreFiles.firstCommitLogDifference(master.storeDir(), slave.storeDir(), end, SEGMENT)).isEqualTo(-1);
    }

    private static SendResult sendWhenRouted(DefaultMQProducer producer, String topic, String body) {
        return Await.value("a send to " + topic, TIMEOUT, () -> {
            try {
                return producer.send(StockClients.message(topic, "TagA", body, body));
            } catch (Exception e) {
                return null;
            }
        });
    }

    private static long commitLogMaxOffset(String brokerAddr) throws Exception {
        return Long.parseLong(admin.ext().fetchBrokerRuntimeStats(brokerAddr).getTable().get("commitLogMaxOffset"));
    }

    @Test
    void aPlainStockClientCannotSendThroughAnEnforcingNameServer() throws Exception {
        DefaultMQProducer plain = new DefaultMQProducer("pg_plain");
        plain.setNamesrvAddr(namesrv.address());
        plain.setInstanceName(StockClients.instanceName("plain-producer"));
        plain.setSendMsgTimeout(3_000);
        plain.setRetryTimesWhenSendFailed(0);
        try {
            plain.start();
            // 5.3.3 reports the closed connection as an IllegalStateException around RemotingSendRequestException
            assertThatThrownBy(() -> plain.send(StockClients.message("TlsTopic", "TagA", "k", "plain")))
                    .isInstanceOfAny(MQClientException.class, IllegalStateException.class);
        } finally {
            StockClients.shutdownAll(plain::shutdown);
        }
    }

    @Test
    void plainConnectionsToTheRemotingAndHaPortsAreClosed() throws Exception {
        assertClosedAfterPlainBytes(namesrv.port());
        assertClosedAfterPlainBytes(master.port());
        assertClosedAfterPlainBytes(Integer.parseInt(confValue(master, "haListenPort")));
    }

    /** Sends a plain remoting frame header (or, on the HA port, a classic offset report) and expects EOF. */
    private static void assertClosedAfterPlainBytes(int port) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(64);
            out.writeInt(0);
            out.flush();
            InputStream in = socket.getInputStream();
            try {
                assertThat(in.read()).as("read from port " + port).isEqualTo(-1);
            } catch (SocketException reset) {
                // a reset is a close as well
            }
        }
    }

    private static String confValue(Distribution.BrokerConf conf, String key) throws IOException {
        for (String line : java.nio.file.Files.readAllLines(conf.file())) {
            if (line.startsWith(key + "=")) {
                return line.substring(key.length() + 1);
            }
        }
        throw new AssertionError(key + " not in " + conf.file());
    }
}
