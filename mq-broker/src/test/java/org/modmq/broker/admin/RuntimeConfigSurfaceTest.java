package org.modmq.broker.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.BrokerServer;
import org.modmq.broker.config.BrokerConfigParser;
import org.modmq.broker.runtime.RuntimeKeys;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/** UPDATE_BROKER_CONFIG over the wire: every key the parser knows is tried; only the run-time keys change. */
@Tag("integration")
@Timeout(60)
class RuntimeConfigSurfaceTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    /** The documented run-time keys (README, docs/hardening.md). */
    private static final Set<String> DOCUMENTED = Set.of("brokerPermission", "autoCreateTopicEnable",
            "autoCreateSubscriptionGroup", "longPollingEnable", "shortPollingTimeMills", "slaveReadEnable",
            "accessMessageInMemoryMaxRatio", "maxMessageSize");

    @TempDir
    Path dir;

    private static RemotingCommand call(RemotingClient client, String addr, RemotingCommand request) {
        return client.invoke(addr, request, WAIT).join();
    }

    private static String configText(RemotingClient client, String addr) {
        RemotingCommand response = call(client, addr, RemotingCommand.request(RequestCode.GET_BROKER_CONFIG));
        assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    private static Properties config(RemotingClient client, String addr) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(configText(client, addr)));
        return properties;
    }

    private static RemotingCommand update(RemotingClient client, String addr, String key, String value) {
        Properties line = new Properties();
        line.setProperty(key, value);
        java.io.StringWriter text = new java.io.StringWriter();
        try {
            line.store(text, null);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return call(client, addr, RemotingCommand.request(RequestCode.UPDATE_BROKER_CONFIG)
                .withBody(text.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static RemotingCommand send(RemotingClient client, String addr, String topic, int bodyBytes) {
        return call(client, addr, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).putExtField("a", "pg")
                .putExtField("b", topic).putExtField("c", "TBW102").putExtField("d", 4).putExtField("e", 0)
                .putExtField("f", 0).putExtField("g", 1L).putExtField("h", 0).putExtField("i", "")
                .putExtField("j", 0).withBody(new byte[bodyBytes]));
    }

    @Test
    void onlyTheDocumentedRuntimeKeysChangeOverTheWire() throws IOException {
        assertThat(RuntimeKeys.names()).containsExactlyInAnyOrderElementsOf(DOCUMENTED);
        try (BrokerServer broker = new BrokerServer(TestConfigs.broker(dir), Clock.systemUTC()).start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            String addr = broker.brokerAddr();
            Properties start = config(client, addr);
            String before = configText(client, addr);
            Set<String> accepted = new TreeSet<>();
            Set<String> known = BrokerConfigParser.knownKeys();
            assertThat(known).hasSizeGreaterThan(100).contains("storePathRootDir", "listenPort", "storeBackend",
                    "brokerName", "namesrvAddr", "haMasterAddress", "rocketmqHome");
            for (String key : known) {
                RemotingCommand answer = update(client, addr, key, start.getProperty(key, "1"));
                if (answer.code() == ResponseCode.SUCCESS) {
                    accepted.add(key);
                } else {
                    assertThat(answer.code()).as(key + ": " + answer.remark()).isEqualTo(ResponseCode.NO_PERMISSION);
                    assertThat(answer.remark()).as(key).contains(key);
                }
            }
            assertThat(accepted).isEqualTo(new TreeSet<>(DOCUMENTED));
            assertThat(configText(client, addr)).as("nothing changed").isEqualTo(before);

            RemotingCommand unknown = update(client, addr, "noSuchKey", "1");
            assertThat(unknown.code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
            assertThat(unknown.remark()).contains("noSuchKey");
            Map<String, String[]> bad = Map.of("brokerPermission", new String[] {"8", "-1", "abc", "15"},
                    "maxMessageSize", new String[] {"0", "4194305", "x"},
                    "autoCreateTopicEnable", new String[] {"yes"},
                    "shortPollingTimeMills", new String[] {"0", "60001"},
                    "accessMessageInMemoryMaxRatio", new String[] {"101"});
            bad.forEach((key, values) -> {
                for (String value : values) {
                    RemotingCommand refused = update(client, addr, key, value);
                    assertThat(refused.code()).as(key + "=" + value).isEqualTo(ResponseCode.INVALID_PARAMETER);
                    assertThat(refused.remark()).contains(key + "=" + value);
                }
            });
            RemotingCommand mixed = call(client, addr, RemotingCommand.request(RequestCode.UPDATE_BROKER_CONFIG)
                    .withBody("slaveReadEnable=true\nstorePathRootDir=/tmp/elsewhere\n".getBytes(StandardCharsets.UTF_8)));
            assertThat(mixed.code()).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(mixed.remark()).contains("storePathRootDir");
            assertThat(configText(client, addr)).as("nothing changed").isEqualTo(before);
        }
    }

    @Test
    void runtimeChangesTakeEffect() throws IOException {
        try (BrokerServer broker = new BrokerServer(TestConfigs.broker(dir, "maxMessageSize", "2048"),
                Clock.systemUTC()).start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            String addr = broker.brokerAddr();
            assertThat(send(client, addr, "Auto1", 2048).code()).isEqualTo(ResponseCode.SUCCESS);

            assertThat(update(client, addr, "maxMessageSize", "100").code()).isEqualTo(ResponseCode.SUCCESS);
            RemotingCommand big = send(client, addr, "Auto1", 101);
            assertThat(big.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
            assertThat(big.remark()).contains("msg body length limit 100B");
            assertThat(send(client, addr, "Auto1", 100).code()).isEqualTo(ResponseCode.SUCCESS);

            assertThat(update(client, addr, "brokerPermission", "4").code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(send(client, addr, "Auto1", 1).code()).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(update(client, addr, "brokerPermission", "6").code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(send(client, addr, "Auto1", 1).code()).isEqualTo(ResponseCode.SUCCESS);

            assertThat(update(client, addr, "autoCreateTopicEnable", "false").code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(send(client, addr, "Auto2", 1).code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
            assertThat(config(client, addr).getProperty("autoCreateTopicEnable")).isEqualTo("false");
        }
    }
}
