package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;
import org.modmq.testkit.process.FreePort;

/**
 * The quick start: {@code bin/modmq} runs a name server and a broker in one process; a stock
 * producer sends to a topic nobody created and a stock push consumer reads it back. The launcher's
 * {@code -c} file moves both ports (the defaults 9876/10911 may be taken on a test machine) and the
 * store.
 */
@Tag("integration")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class StandaloneLauncherTest {

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void stockProducerAndConsumerRoundTripThroughTheStandaloneLauncher() throws Exception {
        Distribution distribution = Distribution.located();
        Distribution.StandaloneConf conf = distribution.standaloneConf(workDir, "standalone-compat");
        try (ChildProcess standalone = distribution.startStandalone(workDir, conf)) {
            assertThat(FreePort.accepts(conf.namesrvPort())).as(standalone.output()).isTrue();
            try (StockAdmin admin = StockAdmin.start(conf.namesrvAddr())) {
                Await.until("standalone broker registered with its own name server", Duration.ofSeconds(30), () -> {
                    try {
                        BrokerData data = admin.ext().examineBrokerClusterInfo().getBrokerAddrTable()
                                .get(conf.brokerName());
                        return data != null && conf.brokerAddr().equals(data.getBrokerAddrs().get(0L));
                    } catch (Exception e) {
                        return false;
                    }
                });
            }

            StockClients.Received received = new StockClients.Received();
            DefaultMQProducer producer = StockClients.producer(conf.namesrvAddr(), "pg_quick_start");
            DefaultMQPushConsumer consumer = null;
            try {
                // Not created beforehand: the standalone broker creates topics on their first send.
                List<String> sent = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    String body = "quick-start-" + i;
                    SendResult result = producer.send(StockClients.message("QuickStart", "TagA", "qs-" + i, body));
                    assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
                    assertThat(result.getMessageQueue().getBrokerName()).isEqualTo(conf.brokerName());
                    sent.add(body);
                }
                consumer = StockClients.pushConsumer(conf.namesrvAddr(), "cg_quick_start", "QuickStart", "*",
                        MessageModel.CLUSTERING, received);
                Await.until("5 messages through the standalone broker", Duration.ofSeconds(30),
                        () -> received.size() >= 5);
                assertThat(received.bodies()).containsExactlyInAnyOrderElementsOf(sent);
                assertThat(received.messages()).allSatisfy(m -> {
                    assertThat(m.getTopic()).isEqualTo("QuickStart");
                    assertThat(m.getTags()).isEqualTo("TagA");
                });
                TopicRouteData route = producer.getDefaultMQProducerImpl().getmQClientFactory().getMQClientAPIImpl()
                        .getTopicRouteInfoFromNameServer("QuickStart", 3_000);
                // Created from TBW102 with the producer's defaultTopicQueueNums (4).
                assertThat(route.getQueueDatas()).singleElement()
                        .satisfies(queue -> assertThat(queue.getWriteQueueNums()).isEqualTo(4));
            } finally {
                DefaultMQPushConsumer started = consumer;
                StockClients.shutdownAll(producer::shutdown, () -> {
                    if (started != null) {
                        started.shutdown();
                    }
                });
            }

            // The -c file chose the store too.
            try (Stream<Path> files = Files.list(conf.storeDir().resolve("commitlog"))) {
                assertThat(files.count()).isPositive();
            }
            // SIGTERM runs the shutdown hook (broker, then name server) and the JVM exits 128 + 15.
            standalone.stop(Duration.ofSeconds(20));
            assertThat(standalone.exitStatus()).as(standalone.output()).isEqualTo(143);
            assertThat(FreePort.accepts(conf.namesrvPort())).isFalse();
        }
    }
}
