package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.broker.BrokerClient.props;
import static org.modmq.broker.BrokerClient.pull;
import static org.modmq.broker.BrokerClient.sendV2;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.data.PullMessageProcessor;
import org.modmq.broker.testing.Await;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.ResponseCode;

/** Timer messages through a real broker and store: the wheel topic first, the real topic when due, across a restart. */
@Tag("integration")
@Timeout(60)
class TimerDataPathTest {

    private static final int SUB = PullMessageProcessor.FLAG_SUBSCRIPTION;

    @TempDir
    Path dir;

    private BrokerServer broker;
    private RemotingClient remoting;
    private BrokerClient client;

    private void start() {
        broker = new BrokerServer(TestConfigs.broker(dir, "mappedFileSizeCommitLog", "1048576",
                "mappedFileSizeConsumeQueue", "20000", "timerFlushIntervalMs", "100"), Clock.systemUTC()).start();
        remoting = new RemotingClient(RemotingClientConfig.defaults());
        client = new BrokerClient(remoting, broker.brokerAddr());
    }

    @AfterEach
    void stop() {
        if (remoting != null) {
            remoting.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private List<BrokerClient.Record> pullAll(String topic) {
        RemotingCommand pulled = client.invoke(pull("g1", topic, 0, 0, SUB, 0, 0, "*"));
        return pulled.code() == ResponseCode.SUCCESS ? BrokerClient.decode(pulled.body()) : List.of();
    }

    @Test
    void aTimerGoesToTheWheelTopicThenToItsTopicWhenDueAndSurvivesARestart() {
        start();
        long sentAt = System.currentTimeMillis();
        RemotingCommand sent = client.invoke(sendV2("TimerA", 0, props("TIMER_DELAY_MS", "2000", "UNIQ_KEY", "T-1",
                "TAGS", "t"), "due".getBytes(StandardCharsets.UTF_8)));
        assertThat(sent.code()).isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand later = client.invoke(sendV2("TimerA", 0, props("TIMER_DELAY_SEC", "4", "UNIQ_KEY", "T-2"),
                "after-restart".getBytes(StandardCharsets.UTF_8)));
        assertThat(later.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(pullAll("rmq_sys_wheel_timer")).filteredOn(r -> !"MODMQ_TIMER_PROGRESS".equals(r.properties()
                .get("TAGS"))).extracting(BrokerClient.Record::body).containsExactly("due", "after-restart");
        assertThat(pullAll("TimerA")).isEmpty();

        Await.until("the first timer in TimerA", Duration.ofSeconds(10), () -> !pullAll("TimerA").isEmpty());
        assertThat(System.currentTimeMillis() - sentAt).isGreaterThanOrEqualTo(2_000);
        BrokerClient.Record record = pullAll("TimerA").get(0);
        assertThat(record.body()).isEqualTo("due");
        assertThat(record.properties()).containsEntry("UNIQ_KEY", "T-1").containsEntry("TAGS", "t")
                .containsKeys("TIMER_OUT_MS", "TIMER_ENQUEUE_MS", "TIMER_DEQUEUE_MS")
                .doesNotContainKeys("REAL_TOPIC", "REAL_QID");

        broker.close();
        remoting.close();
        start();
        Await.until("the second timer in TimerA after the restart", Duration.ofSeconds(15),
                () -> pullAll("TimerA").size() == 2);
        assertThat(System.currentTimeMillis() - sentAt).isGreaterThanOrEqualTo(4_000);
        assertThat(pullAll("TimerA")).extracting(BrokerClient.Record::body).containsExactly("due", "after-restart");
    }

    @Test
    void aTooLongOrMalformedTimerIsRefusedAndStoresNothing() {
        start();
        RemotingCommand tooLong = client.invoke(sendV2("TimerB", 0, props("TIMER_DELAY_SEC", "300000"),
                "x".getBytes(StandardCharsets.UTF_8)));
        assertThat(tooLong.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(tooLong.remark()).contains("max delay 259200000ms");
        RemotingCommand malformed = client.invoke(sendV2("TimerB", 0, props("TIMER_DELIVER_MS", "tomorrow"),
                "x".getBytes(StandardCharsets.UTF_8)));
        assertThat(malformed.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(malformed.remark()).contains("TIMER_DELIVER_MS=tomorrow");
        assertThat(pullAll("rmq_sys_wheel_timer")).isEmpty();
        assertThat(pullAll("TimerB")).isEmpty();
    }
}
