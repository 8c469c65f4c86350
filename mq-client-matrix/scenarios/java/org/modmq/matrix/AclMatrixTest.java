package org.modmq.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.modmq.testkit.process.Await;

/**
 * ACL 1.0 with the line's own {@code AclClientRPCHook} ({@code rocketmq-acl} for 4.9.8, inside
 * {@code rocketmq-client} for 5.x): {@code bin/modmq} with {@code aclEnable=true} (broker and embedded
 * name server, the broker registering with its inner credentials). Signed clients send and read back;
 * a wrong secret and a non-admin topic creation are refused with code 1 and RocketMQ's reason. Mostly
 * waits for the broker, so it runs beside the other {@code CONCURRENT} scenario classes.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Execution(ExecutionMode.CONCURRENT)
class AclMatrixTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String RULES = """
            accounts:
              - accessKey: matrixInner
                secretKey: innerSecret1
                admin: true
              - accessKey: appUser1
                secretKey: appSecret1
                defaultTopicPerm: PUB|SUB
                defaultGroupPerm: SUB
            """;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path workDir;

    private static final MatrixClients.Shutdowns SHUTDOWNS = new MatrixClients.Shutdowns();

    private static RPCHook hook(String accessKey, String secretKey) {
        return new AclClientRPCHook(new SessionCredentials(accessKey, secretKey));
    }

    @AfterAll
    static void shutdown() {
        SHUTDOWNS.await();
    }

    @Test
    void signedClientsWorkAndBadCredentialsAreRefused() throws Exception {
        Path rules = Files.writeString(workDir.resolve("plain_acl.yml"), RULES);
        Map<String, String> acl = Map.of("aclEnable", "true", "aclFile", rules.toString(),
                "innerAccessKey", "matrixInner", "innerSecretKey", "innerSecret1");
        try (MatrixBroker broker = MatrixBroker.start(workDir, acl, hook("matrixInner", "innerSecret1"))) {
            broker.createTopic("AclMatrix", 1);

            DefaultMQProducer producer = new DefaultMQProducer("pg_acl_matrix", hook("appUser1", "appSecret1"));
            producer.setNamesrvAddr(broker.namesrvAddr());
            producer.setInstanceName("acl-matrix-producer");
            // A first send looks the route up and connects; a loaded host needs more than the default 3 s.
            producer.setSendMsgTimeout(15_000);
            producer.start();
            assertThat(producer.send(new Message("AclMatrix", "TagA", "k1",
                    "signed".getBytes(StandardCharsets.UTF_8))).getSendStatus()).isEqualTo(SendStatus.SEND_OK);

            DefaultLitePullConsumer consumer = new DefaultLitePullConsumer("cg_acl_matrix",
                    hook("appUser1", "appSecret1"));
            consumer.setNamesrvAddr(broker.namesrvAddr());
            consumer.setInstanceName("acl-matrix-consumer");
            consumer.setAutoCommit(false);
            consumer.start();
            consumer.assign(consumer.fetchMessageQueues("AclMatrix"));
            List<MessageExt> read = new ArrayList<>();
            Await.until("the signed message read back", WAIT, () -> {
                read.addAll(consumer.poll(200));
                return !read.isEmpty();
            });
            assertThat(new String(read.get(0).getBody(), StandardCharsets.UTF_8)).isEqualTo("signed");

            SHUTDOWNS.start(producer::shutdown);
            SHUTDOWNS.start(consumer::shutdown);

            DefaultMQAdminExt wrong = MatrixClients.admin(broker.namesrvAddr(), hook("appUser1", "notTheSecret"));
            Throwable route = catchThrowable(() -> wrong.examineTopicRouteInfo("AclMatrix"));
            assertThat(route).isInstanceOf(MQClientException.class);
            assertThat(((MQClientException) route).getResponseCode()).isEqualTo(1);
            assertThat(route).hasMessageContaining(
                    "org.apache.rocketmq.acl.common.AclException: Check signature failed for accessKey=appUser1");

            SHUTDOWNS.start(wrong::shutdown);

            DefaultMQAdminExt app = MatrixClients.admin(broker.namesrvAddr(), hook("appUser1", "appSecret1"));
            Throwable create = catchThrowable(() -> app.createAndUpdateTopicConfig(broker.brokerAddr(),
                    new TopicConfig("NotByApp", 1, 1, 6)));
            SHUTDOWNS.start(app::shutdown);
            assertThat(create).isNotNull().hasStackTraceContaining(
                    "Need admin permission for request code=17, but accessKey=appUser1 is not");
        }
    }
}
