package org.modmq.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;
import org.modmq.remoting.netty.ProcessorExecutors;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RemotingServerConfig;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.SerializeType;

/** A real server with the ACL as its request check and a real client signing with {@link RequestSigner}. */
@Tag("integration")
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AclRemotingTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private ThreadPoolExecutor executor;
    private RemotingServer server;
    private RemotingClient client;
    private String address;

    @BeforeEach
    void start() throws Exception {
        Path file = Files.writeString(dir.resolve("plain_acl.yml"), PlainAclValidatorTest.RULES);
        AclService acl = AclService.load(file);
        executor = ProcessorExecutors.bounded("acl-test", 1, 16);
        server = new RemotingServer(RemotingServerConfig.of("127.0.0.1", 0).withIoThreads(1));
        server.setRequestCheck(acl.requestCheck());
        RequestProcessor ok = RequestProcessor.sync((channel, request) ->
                RemotingCommand.responseTo(request, ResponseCode.SUCCESS, "processed"));
        server.registerProcessor(RequestCode.SEND_MESSAGE_V2, ok, executor);
        server.registerProcessor(RequestCode.UPDATE_AND_CREATE_TOPIC, ok, executor);
        server.start();
        client = new RemotingClient(RemotingClientConfig.defaults());
        address = "127.0.0.1:" + server.port();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        executor.shutdownNow();
    }

    private RemotingCommand send(String topic, SerializeType type) throws Exception {
        RemotingCommand request = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2,
                        Map.of("a", "pg_app", "b", topic, "c", "TBW102", "i", "TAGS\u0001TagA\u0002"))
                .setSerializeType(type).withBody("hello".getBytes(StandardCharsets.UTF_8));
        return client.invoke(address, request, WAIT).get(10, TimeUnit.SECONDS);
    }

    @Test
    void signedRequestsPassInBothHeaderTypes() throws Exception {
        client.setOutgoingRequestHook(new RequestSigner("appUser1", "appSecret1"));
        for (SerializeType type : SerializeType.values()) {
            RemotingCommand response = send("TopicA", type);
            assertThat(response.code()).as(type.name()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(response.remark()).isEqualTo("processed");
        }
    }

    @Test
    void refusalsAreAnsweredAsRocketMqDoes() throws Exception {
        RemotingCommand unsigned = send("TopicA", SerializeType.JSON);
        assertThat(unsigned.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(unsigned.remark()).isEqualTo("org.apache.rocketmq.acl.common.AclException: No accessKey is configured");

        client.setOutgoingRequestHook(new RequestSigner("appUser1", "notTheSecret"));
        assertThat(send("TopicA", SerializeType.JSON).remark())
                .isEqualTo(AclRequestCheck.REMARK_PREFIX + "Check signature failed for accessKey=appUser1");

        client.setOutgoingRequestHook(new RequestSigner("appUser1", "appSecret1"));
        assertThat(send("TopicDeny", SerializeType.ROCKETMQ).remark()).endsWith("No default permission for topic:TopicDeny");
        RemotingCommand create = client.invoke(address, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC,
                Map.of("topic", "NewTopic")), WAIT).get(10, TimeUnit.SECONDS);
        assertThat(create.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(create.remark()).endsWith("Need admin permission for request code=17, but accessKey=appUser1 is not");
    }

    @Test
    void loadRefusesAFileThatCannotBeUsed() {
        assertThatThrownBy(() -> AclService.load(dir.resolve("absent.yml"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("absent.yml");
    }
}
