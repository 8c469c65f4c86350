package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;

/**
 * ACL 1.0 with the stock 5.3.3 client's {@code AclClientRPCHook} and {@code mqadmin}'s
 * {@code conf/tools.yml}: a name server and a broker from the distribution with {@code aclEnable=true},
 * the broker registering with its inner credentials. A second name server without ACL, which the
 * broker also registers with, gives clients with bad credentials a route, so that the broker's own
 * refusals are seen. The scenarios mostly wait for processes and use their own topics, groups and
 * client instances, so they run at the same time, and beside other classes of this module
 * ({@link ExecutionMode#CONCURRENT}).
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Execution(ExecutionMode.CONCURRENT)
class AclCompatTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String RULES = """
            accounts:
              - accessKey: modmqInner
                secretKey: innerSecret1
                admin: true
              - accessKey: opsAdmin
                secretKey: adminSecret1
                admin: true
              - accessKey: appUser1
                secretKey: appSecret1
                admin: false
                defaultTopicPerm: PUB|SUB
                defaultGroupPerm: SUB
                topicPerms:
                  - DenyTopic=DENY
            """;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static ChildProcess aclNamesrv;
    private static ChildProcess openNamesrv;
    private static ChildProcess broker;
    private static Distribution.BrokerConf brokerConf;
    private static StockAdmin admin;
    private static StockAdmin openAdmin;
    private static final ClientShutdowns SHUTDOWNS = new ClientShutdowns();

    static RPCHook hook(String accessKey, String secretKey) {
        return new AclClientRPCHook(new SessionCredentials(accessKey, secretKey));
    }

    @BeforeAll
    static void startCluster() throws Exception {
        Path rules = Files.writeString(workDir.resolve("plain_acl.yml"), RULES);
        Distribution distribution = Distribution.located();
        aclNamesrv = distribution.startNamesrv(workDir, Map.of("aclEnable", "true", "aclFile", rules.toString()));
        openNamesrv = distribution.startNamesrv(workDir);
        brokerConf = distribution.brokerConf(workDir, "broker-acl", List.of(aclNamesrv.address(), openNamesrv.address()),
                Map.of("aclEnable", "true", "aclFile", rules.toString(), "innerAccessKey", "modmqInner",
                        "innerSecretKey", "innerSecret1", "autoCreateTopicEnable", "false"));
        broker = distribution.startBroker(workDir, brokerConf);
        admin = StockAdmin.start(aclNamesrv.address(), hook("opsAdmin", "adminSecret1"));
        Await.until("broker registered at the ACL name server with signed requests", WAIT, () -> {
            try {
                BrokerData data = admin.ext().examineBrokerClusterInfo().getBrokerAddrTable().get("broker-acl");
                return data != null && brokerConf.address().equals(data.getBrokerAddrs().get(0L));
            } catch (Exception e) {
                return false;
            }
        });
        for (String topic : List.of("AclTopic", "DenyTopic")) {
            admin.ext().createAndUpdateTopicConfig(brokerConf.address(), new TopicConfig(topic, 2, 2, 6));
        }
        openAdmin = StockAdmin.start(openNamesrv.address());
        Await.until("topics routed by both name servers", WAIT, () -> routed(admin, "AclTopic")
                && routed(admin, "DenyTopic") && routed(openAdmin, "AclTopic") && routed(openAdmin, "DenyTopic"));
    }

    private static boolean routed(String topic) {
        return routed(admin, topic);
    }

    private static boolean routed(StockAdmin through, String topic) {
        try {
            return !through.ext().examineTopicRouteInfo(topic).getQueueDatas().isEmpty();
        } catch (Exception e) {
            return false;
        }
    }

    @AfterAll
    static void stopCluster() {
        SHUTDOWNS.close();
        for (StockAdmin started : new StockAdmin[] {admin, openAdmin}) {
            if (started != null) {
                started.close();
            }
        }
        for (ChildProcess process : new ChildProcess[] {broker, openNamesrv, aclNamesrv}) {
            if (process != null) {
                process.close();
            }
        }
    }

    @Test
    void producerAndPushConsumerWithTheRightKeysWork() throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("pg_acl", hook("appUser1", "appSecret1"));
        producer.setNamesrvAddr(aclNamesrv.address());
        producer.setInstanceName("acl-producer");
        // A first send looks the route up and connects; a loaded host needs more than the default 3 s.
        producer.setSendMsgTimeout(15_000);
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("cg_acl", hook("appUser1", "appSecret1"));
        try {
            producer.start();
            for (int i = 0; i < 3; i++) {
                assertThat(producer.send(StockClients.message("AclTopic", "TagA", "k" + i, "acl-" + i))
                        .getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            }

            StockClients.Received received = new StockClients.Received();
            consumer.setNamesrvAddr(aclNamesrv.address());
            consumer.setInstanceName("acl-consumer");
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.setHeartbeatBrokerInterval(1_000);
            consumer.setPersistConsumerOffsetInterval(1_000);
            consumer.subscribe("AclTopic", "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                received.addAll(messages);
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            Await.until("3 messages consumed with signed pulls", WAIT, () -> received.size() >= 3);
            assertThat(received.bodies()).containsExactlyInAnyOrder("acl-0", "acl-1", "acl-2");
            Await.until("the consumer's signed offset commits stored", WAIT, () -> {
                try {
                    return admin.ext().examineConsumeStats("cg_acl").computeTotalDiff() == 0;
                } catch (Exception e) {
                    return false;
                }
            });
        } finally {
            SHUTDOWNS.start(producer::shutdown);
            SHUTDOWNS.start(consumer::shutdown);
        }
    }

    @Test
    void theBrokerRefusesBadKeysDeniedTopicsAndNonAdminsWithRocketMqsCodeAndReason() throws Exception {
        assertRefused(sendThroughTheOpenNameServer("appUser1", "notTheSecret", "AclTopic"),
                "Check signature failed for accessKey=appUser1");
        assertRefused(sendThroughTheOpenNameServer("nobody01", "whatever1", "AclTopic"), "No acl config for nobody01");
        assertRefused(sendThroughTheOpenNameServer("appUser1", "appSecret1", "DenyTopic"),
                "No default permission for topic:DenyTopic");

        StockAdmin app = StockAdmin.start(openNamesrv.address(), hook("appUser1", "appSecret1"));
        try {
            Throwable create = catchThrowable(() -> app.ext().createAndUpdateTopicConfig(brokerConf.address(),
                    new TopicConfig("AppCreated", 1, 1, 6)));
            assertRefused(create, "Need admin permission for request code=17, but accessKey=appUser1 is not");
        } finally {
            SHUTDOWNS.start(app::close);
        }
        assertThat(routed("AppCreated")).isFalse();
    }

    @Test
    void theNameServerRefusesAWrongSecret() throws Exception {
        StockAdmin wrong = StockAdmin.start(aclNamesrv.address(), hook("appUser1", "notTheSecret"));
        try {
            assertRefused(catchThrowable(() -> wrong.ext().examineTopicRouteInfo("AclTopic")),
                    "Check signature failed for accessKey=appUser1");
        } finally {
            SHUTDOWNS.start(wrong::close);
        }
    }

    @Test
    void mqadminCreatesATopicOnlyWithAdminCredentials() throws Exception {
        Path appHome = toolsHome("app-home", "appUser1", "appSecret1");
        Path adminHome = toolsHome("admin-home", "opsAdmin", "adminSecret1");
        // Two JVMs that mostly wait: run at once, each with its own conf/tools.yml.
        CompletableFuture<MqAdmin.Result> refused = CompletableFuture.supplyAsync(() -> MqAdmin.run(appHome,
                "updateTopic", "-n", aclNamesrv.address(), "-c", "CompatCluster", "-t", "CliTopicByApp"));
        MqAdmin.Result created = MqAdmin.run(adminHome,
                "updateTopic", "-n", aclNamesrv.address(), "-c", "CompatCluster", "-t", "CliTopicByAdmin");
        assertThat(refused.get(90, TimeUnit.SECONDS).output())
                .contains("Need admin permission for request code=17, but accessKey=appUser1 is not");
        assertThat(created.output()).contains("success");
        Await.until("CliTopicByAdmin routed", WAIT, () -> routed("CliTopicByAdmin"));
        assertThat(routed("CliTopicByApp")).isFalse();
    }

    /** A RocketMQ home for mqadmin whose {@code conf/tools.yml} holds the credentials. */
    private static Path toolsHome(String name, String accessKey, String secretKey) throws Exception {
        Path home = Files.createDirectories(workDir.resolve(name));
        Files.createDirectories(home.resolve("conf"));
        Files.writeString(home.resolve("conf/tools.yml"), "accessKey: " + accessKey + "\nsecretKey: " + secretKey + "\n");
        return home;
    }

    private static Throwable sendThroughTheOpenNameServer(String accessKey, String secretKey, String topic)
            throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer("pg_refused", hook(accessKey, secretKey));
        producer.setNamesrvAddr(openNamesrv.address());
        producer.setInstanceName("acl-refused-" + accessKey + "-" + topic);
        producer.setRetryTimesWhenSendFailed(0);
        producer.setSendMsgTimeout(15_000);
        producer.start();
        try {
            return catchThrowable(() -> producer.send(StockClients.message(topic, "TagA", "k", "refused")));
        } finally {
            SHUTDOWNS.start(producer::shutdown);
        }
    }

    /** The stock client's exception carries code 1 (SYSTEM_ERROR) and RocketMQ's remark. */
    private static void assertRefused(Throwable thrown, String reason) {
        assertThat(thrown).as("refused with '" + reason + "'").isNotNull();
        assertThat(responseCode(thrown)).as(String.valueOf(thrown)).isEqualTo(1);
        assertThat(thrown).hasStackTraceContaining("org.apache.rocketmq.acl.common.AclException: " + reason);
    }

    private static int responseCode(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof MQBrokerException broker) {
                return broker.getResponseCode();
            }
            if (t instanceof MQClientException client && client.getResponseCode() > 0) {
                return client.getResponseCode();
            }
        }
        return -1;
    }
}
