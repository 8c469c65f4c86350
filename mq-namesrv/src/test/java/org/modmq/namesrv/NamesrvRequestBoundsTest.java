package org.modmq.namesrv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.modmq.namesrv.NamesrvServerTest.registration;
import static org.modmq.namesrv.NamesrvServerTest.topicJson;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.modmq.api.config.ConfigException;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/** What one write request may carry, as raw frames against a real name server: refusals store nothing. */
@Tag("integration")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NamesrvRequestBoundsTest {

    private static final String ADDR = "127.0.0.1:20911";

    private NamesrvServer namesrv;
    private final RemotingClient client = new RemotingClient(RemotingClientConfig.defaults());

    private void start(String... keyValues) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("listenPort", "0");
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            all.put(keyValues[i], keyValues[i + 1]);
        }
        namesrv = new NamesrvServer(NamesrvConfig.parse(all, warning -> { })).start();
    }

    @AfterEach
    void tearDown() {
        client.close();
        if (namesrv != null) {
            namesrv.close();
        }
    }

    private RemotingCommand call(RemotingCommand request) {
        return client.invoke(namesrv.address(), request, Duration.ofSeconds(10)).join();
    }

    private static String body(int topics, String extraTopic) {
        StringJoiner table = new StringJoiner(",");
        for (int i = 0; i < topics; i++) {
            table.add(topicJson("T" + i, 4, 6));
        }
        if (extraTopic != null) {
            table.add(extraTopic);
        }
        return "{\"filterServerList\":[],\"topicConfigSerializeWrapper\":{\"dataVersion\":{\"counter\":1,"
                + "\"stateVersion\":0,\"timestamp\":1},\"topicConfigTable\":{" + table + "}}}";
    }

    private void assertRefused(RemotingCommand request, String remarkPart) {
        RemotingCommand answer = call(request);
        assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(answer.remark()).contains(remarkPart);
        assertThat(namesrv.liveBrokerCount()).as("brokers registered").isZero();
        RemotingCommand route = call(RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC, Map.of("topic", "T0")));
        assertThat(route.code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
    }

    @Test
    void registrationsBeyondTheBoundsOrNotParsingAreRefusedWhole() {
        start("registrationMaxTopics", "10", "registrationMaxBodyBytes", "65536");
        assertRefused(registration(ADDR, 0, body(11, null)), "11 topics, more than registrationMaxTopics=10");
        assertRefused(registration(ADDR, 0, body(1, null) + " ".repeat(70_000)),
                "larger than registrationMaxBodyBytes=65536");
        assertRefused(registration(ADDR, 0, "{not json"), "not a valid");
        assertRefused(registration(ADDR, 0, "null"), "not a valid");
        assertRefused(registration(ADDR, 0, "[1,2]"), "not a valid");
        assertRefused(registration(ADDR, 0, body(1, topicJson("x".repeat(256), 4, 6))),
                "more than registrationMaxNameLength=255");
        assertRefused(registration(ADDR, 0, body(1, topicJson("Neg", -1, 6))), "readQueueNums=-1");
        assertRefused(registration(ADDR, 0, body(1, topicJson("Perm", 4, 99))), "perm=99");
        RemotingCommand longName = registration(ADDR, 0, body(1, null));
        longName.putExtField("brokerName", "b".repeat(300));
        assertRefused(longName, "brokerName is 300 characters long");

        RemotingCommand accepted = call(registration(ADDR, 0, body(10, null)));
        assertThat(accepted.code()).as(accepted.remark()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(namesrv.liveBrokerCount()).isEqualTo(1);
    }

    @Test
    void brokersBeyondTheBoundAreRefusedWhileLiveOnesMayRegisterAgain() {
        start("registrationMaxBrokers", "1");
        // One topic alone would be an incremental registration, which needs a full one first.
        RemotingCommand first = call(registration(ADDR, 0, body(2, null)));
        assertThat(first.code()).as(first.remark()).isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand second = call(registration("127.0.0.1:20921", 0, body(2, null)));
        assertThat(second.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(second.remark()).contains("registrationMaxBrokers=1");
        assertThat(call(registration(ADDR, 0, body(3, null))).code()).as("again").isEqualTo(ResponseCode.SUCCESS);
        assertThat(namesrv.liveBrokerCount()).isEqualTo(1);
    }

    @Test
    void kvConfigAndTopicRegistrationAreBounded() {
        start("kvConfigMaxEntries", "2", "kvConfigMaxValueLength", "16");
        RemotingCommand tooLong = call(RemotingCommand.request(RequestCode.PUT_KV_CONFIG,
                Map.of("namespace", "ns", "key", "k", "value", "v".repeat(17))));
        assertThat(tooLong.code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
        assertThat(tooLong.remark()).contains("kvConfigMaxValueLength=16");
        for (String key : new String[] {"k1", "k2"}) {
            assertThat(call(RemotingCommand.request(RequestCode.PUT_KV_CONFIG,
                    Map.of("namespace", "ns", "key", key, "value", "v"))).code()).isEqualTo(ResponseCode.SUCCESS);
        }
        RemotingCommand third = call(RemotingCommand.request(RequestCode.PUT_KV_CONFIG,
                Map.of("namespace", "ns2", "key", "k3", "value", "v")));
        assertThat(third.code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
        assertThat(third.remark()).contains("kvConfigMaxEntries=2");
        assertThat(call(RemotingCommand.request(RequestCode.PUT_KV_CONFIG,
                Map.of("namespace", "ns", "key", "k1", "value", "w"))).code()).as("replacing").isEqualTo(ResponseCode.SUCCESS);
        assertThat(call(RemotingCommand.request(RequestCode.GET_KV_CONFIG, Map.of("namespace", "ns2", "key", "k3")))
                .code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);

        RemotingCommand topic = call(RemotingCommand.request(RequestCode.REGISTER_TOPIC_IN_NAMESRV,
                Map.of("topic", "t".repeat(256))).withBody("{\"queueDatas\":[]}".getBytes(StandardCharsets.UTF_8)));
        assertThat(topic.code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
        RemotingCommand badQueues = call(RemotingCommand.request(RequestCode.REGISTER_TOPIC_IN_NAMESRV,
                Map.of("topic", "T")).withBody(("{\"queueDatas\":[{\"brokerName\":\"b\",\"perm\":6,\"readQueueNums\":-4,"
                + "\"topicSysFlag\":0,\"writeQueueNums\":4}]}").getBytes(StandardCharsets.UTF_8)));
        assertThat(badQueues.code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
    }

    @Test
    void badBoundsStopStartUpNamingTheKey() {
        for (String[] bad : new String[][] {{"registrationMaxTopics", "0"}, {"registrationMaxBodyBytes", "abc"},
            {"kvConfigMaxEntries", "-1"}, {"registrationMaxBrokers", "0"}, {"remotingMaxConnections", "0"}, {"remotingMaxFrameBytes", "1024"},
            {"remotingFrameReceiveTimeoutMillis", "-1"}, {"serverChannelMaxIdleTimeSeconds", "x"},
            {"remotingMaxPendingFrameBytes", "1048576"}}) {
            assertThatThrownBy(() -> NamesrvConfig.parse(Map.of(bad[0], bad[1]), w -> { }))
                    .as(bad[0]).isInstanceOf(ConfigException.class).hasMessageContaining(bad[0]);
        }
        NamesrvConfig config = NamesrvConfig.parse(Map.of("remotingMaxConnections", "7",
                "serverChannelMaxIdleTimeSeconds", "0", "remotingMaxFrameBytes", "2097152"), w -> { });
        assertThat(config.remoting().maxConnections()).isEqualTo(7);
        assertThat(config.remoting().idleSeconds()).isZero();
        assertThat(config.limits().maxBodyBytes()).as("follows the frame bound").isEqualTo(2_097_152);
    }
}
