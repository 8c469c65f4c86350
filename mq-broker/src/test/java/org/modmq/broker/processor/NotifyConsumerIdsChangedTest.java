package org.modmq.broker.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.client.ConsumerGroupRegistry;
import org.modmq.broker.client.ConsumerIdsChangedNotifier;
import org.modmq.broker.client.ProducerRegistry;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.broker.runtime.MetadataOnlyStoreBinding;
import org.modmq.broker.testing.Await;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RemotingServerConfig;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

@Tag("integration")
@Timeout(30)
class NotifyConsumerIdsChangedTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final ExecutorService executor = Executors.newFixedThreadPool(2);

    @AfterEach
    void stopExecutor() throws InterruptedException {
        executor.shutdownNow();
        assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    private static byte[] heartbeat(String clientId) {
        return ("{\"clientID\":\"" + clientId + "\",\"consumerDataSet\":[{\"consumeFromWhere\":"
                + "\"CONSUME_FROM_LAST_OFFSET\",\"consumeType\":\"CONSUME_PASSIVELY\",\"groupName\":\"cg\","
                + "\"messageModel\":\"CLUSTERING\",\"subscriptionDataSet\":[{\"classFilterMode\":false,"
                + "\"codeSet\":[],\"expressionType\":\"TAG\",\"subString\":\"*\",\"subVersion\":1,\"tagsSet\":[],"
                + "\"topic\":\"TopicTest\"}],\"unitMode\":false}],\"producerDataSet\":[]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private RemotingClient consumer(List<String> notified) {
        RemotingClient client = new RemotingClient(RemotingClientConfig.defaults());
        client.registerProcessor(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, (channel, request) -> {
            notified.add(request.extField("consumerGroup"));
            return null;
        }, executor);
        return client;
    }

    @Test
    void notifiesEveryMemberWhenASecondConsumerJoinsAndWhenOneLeaves() throws Exception {
        BrokerMetadata metadata = BrokerMetadata.open(TestConfigs.broker(dir), Clock.systemUTC());
        ConsumerGroupRegistry consumers = new ConsumerGroupRegistry(Clock.systemUTC(),
                new ConsumerIdsChangedNotifier(g -> true));
        ProducerRegistry producers = new ProducerRegistry(Clock.systemUTC());
        List<String> first = new CopyOnWriteArrayList<>();
        List<String> second = new CopyOnWriteArrayList<>();
        try (RemotingServer server = new RemotingServer(RemotingServerConfig.of("127.0.0.1", 0));
             RemotingClient one = consumer(first);
             RemotingClient two = consumer(second)) {
            server.registerProcessor(RequestCode.HEART_BEAT,
                    RequestProcessor.sync(new ClientManageProcessor(metadata, consumers, producers)), executor);
            server.registerProcessor(RequestCode.GET_CONSUMER_LIST_BY_GROUP, RequestProcessor.sync(
                    new ConsumerManageProcessor(metadata, consumers, new MetadataOnlyStoreBinding())), executor);
            server.addChannelCloseListener(consumers::channelClosed);
            server.start();
            String address = "127.0.0.1:" + server.port();

            RemotingCommand answer = one.invoke(address, RemotingCommand.request(RequestCode.HEART_BEAT)
                    .withBody(heartbeat("10.0.0.1@one")), WAIT).get();
            assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(answer.version()).isEqualTo(479);
            Await.until("first consumer notified of its own join", WAIT, () -> first.size() == 1);

            two.invoke(address, RemotingCommand.request(RequestCode.HEART_BEAT)
                    .withBody(heartbeat("10.0.0.2@two")), WAIT).get();
            Await.until("both consumers notified of the second join", WAIT,
                    () -> first.size() == 2 && second.size() == 1);
            assertThat(first).containsOnly("cg");

            RemotingCommand list = one.invoke(address, RemotingCommand.request(RequestCode.GET_CONSUMER_LIST_BY_GROUP)
                    .putExtField("consumerGroup", "cg"), WAIT).get();
            assertThat(Json.decode(list.body(), ConsumerManageProcessor.ConsumerIdList.class).consumerIdList())
                    .containsExactly("10.0.0.1@one", "10.0.0.2@two");

            two.close();
            Await.until("first consumer notified of the second leaving", WAIT, () -> first.size() == 3);
            Await.until("group shrinks to one member", WAIT,
                    () -> consumers.group("cg").orElseThrow().clientIds().equals(List.of("10.0.0.1@one")));
        }
    }
}
