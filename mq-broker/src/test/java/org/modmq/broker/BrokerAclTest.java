package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.acl.RequestSigner;
import org.modmq.broker.runtime.MetadataOnlyStoreBinding;
import org.modmq.broker.testing.Await;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.namesrv.NamesrvConfig;
import org.modmq.namesrv.NamesrvServer;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * ACL on at both the name server and the broker: the broker registers with its inner credentials,
 * clients are checked at both, and an edited file takes effect once the reload agent steps.
 */
@Tag("integration")
@Timeout(60)
class BrokerAclTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private static final String RULES = """
            accounts:
              - accessKey: brokerInner
                secretKey: innerSecret1
                admin: true
              - accessKey: appUser1
                secretKey: appSecret1
                defaultTopicPerm: PUB|SUB
                defaultGroupPerm: SUB
            """;

    @TempDir
    Path dir;

    private static RemotingCommand call(RemotingClient client, String address, int code, Map<String, String> fields) {
        return client.invoke(address, RemotingCommand.request(code, fields), WAIT).join();
    }

    @Test
    void brokerRegistersSignedAndClientsAreChecked() throws Exception {
        Path file = Files.writeString(dir.resolve("plain_acl.yml"), RULES);
        NamesrvConfig namesrvConfig = NamesrvConfig.defaults().withListenPort(0).withAcl(true, file);
        try (NamesrvServer namesrv = new NamesrvServer(namesrvConfig).start();
             RemotingClient anonymous = new RemotingClient(RemotingClientConfig.defaults());
             RemotingClient app = new RemotingClient(RemotingClientConfig.defaults());
             RemotingClient admin = new RemotingClient(RemotingClientConfig.defaults())) {
            app.setOutgoingRequestHook(new RequestSigner("appUser1", "appSecret1"));
            admin.setOutgoingRequestHook(new RequestSigner("brokerInner", "innerSecret1"));
            try (BrokerServer broker = new BrokerServer(TestConfigs.broker(dir.resolve("store"), "namesrvAddr",
                    namesrv.address(), "aclEnable", "true", "aclFile", file.toString(), "innerAccessKey", "brokerInner",
                    "innerSecretKey", "innerSecret1"), Clock.systemUTC(), MetadataOnlyStoreBinding.FACTORY).start()) {
                Await.until("broker registered with signed requests", WAIT, () -> namesrv.liveBrokerCount() == 1);

                Map<String, String> route = Map.of("topic", "TBW102");
                RemotingCommand refused = call(anonymous, namesrv.address(), RequestCode.GET_ROUTEINFO_BY_TOPIC, route);
                assertThat(refused.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
                assertThat(refused.remark()).contains("No accessKey is configured");
                assertThat(call(app, namesrv.address(), RequestCode.GET_ROUTEINFO_BY_TOPIC, route).code())
                        .isEqualTo(ResponseCode.SUCCESS);

                Map<String, String> topic = Map.of("topic", "AclTopic", "readQueueNums", "4", "writeQueueNums", "4",
                        "perm", "6");
                RemotingCommand notAdmin = call(app, broker.brokerAddr(), RequestCode.UPDATE_AND_CREATE_TOPIC, topic);
                assertThat(notAdmin.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
                assertThat(notAdmin.remark()).contains("Need admin permission for request code=17");
                assertThat(broker.runtime().metadata().topics().get("AclTopic")).isEmpty();
                assertThat(call(admin, broker.brokerAddr(), RequestCode.UPDATE_AND_CREATE_TOPIC, topic).code())
                        .isEqualTo(ResponseCode.SUCCESS);
                Await.until("the created topic registered at the name server", WAIT, () -> call(app,
                        namesrv.address(), RequestCode.GET_ROUTEINFO_BY_TOPIC, Map.of("topic", "AclTopic")).code()
                        == ResponseCode.SUCCESS);

                Map<String, String> offset = Map.of("consumerGroup", "cg1", "topic", "AclTopic", "queueId", "0");
                assertThat(call(app, broker.brokerAddr(), RequestCode.QUERY_CONSUMER_OFFSET, offset).code())
                        .isEqualTo(ResponseCode.QUERY_NOT_FOUND);

                Files.writeString(file, RULES.substring(0, RULES.indexOf("  - accessKey: appUser1")));
                assertThat(broker.acl().orElseThrow().reloadAgent().doWork()).isBetween(0, 1);
                RemotingCommand removed = call(app, broker.brokerAddr(), RequestCode.QUERY_CONSUMER_OFFSET, offset);
                assertThat(removed.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
                assertThat(removed.remark()).endsWith("No acl config for appUser1");
            }
        }
    }
}
