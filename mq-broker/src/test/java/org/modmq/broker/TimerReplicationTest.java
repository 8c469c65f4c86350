package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.broker.BrokerClient.props;
import static org.modmq.broker.BrokerClient.pull;
import static org.modmq.broker.BrokerClient.sendV2;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.data.PullMessageProcessor;
import org.modmq.broker.testing.Await;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * Timers on a master and its slave in process: only the master delivers (the slave holds the replicated
 * delivery, once), and a slave whose store becomes master (as the controller makes it) delivers the
 * timers still pending and not those the old master's progress marker covers.
 */
@Tag("integration")
@Timeout(60)
class TimerReplicationTest {

    private static final String TOPIC = "TimerHa";
    private static final int SUB = PullMessageProcessor.FLAG_SUBSCRIPTION;
    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    Path dir;

    private final List<HaNode> nodes = new ArrayList<>();
    private final RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults());

    @AfterEach
    void stop() {
        remoting.close();
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
    }

    private RemotingCommand invoke(HaNode node, RemotingCommand request) {
        return remoting.invoke(node.address(), request, Duration.ofSeconds(10)).join();
    }

    private void createTopic(HaNode node) {
        assertThat(invoke(node, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC).putExtField("topic", TOPIC)
                .putExtField("readQueueNums", 1).putExtField("writeQueueNums", 1).putExtField("perm", 6)).code())
                .isEqualTo(ResponseCode.SUCCESS);
    }

    private static long wheelEntries(HaNode node) {
        return node.binding().store().getMaxOffsetInQueue("rmq_sys_wheel_timer", 0);
    }

    private List<String> bodies(HaNode node) {
        RemotingCommand pulled = invoke(node, pull("g1", TOPIC, 0, 0, SUB, 0, 0, "*"));
        return pulled.code() == ResponseCode.SUCCESS
                ? BrokerClient.decode(pulled.body()).stream().map(BrokerClient.Record::body).toList() : List.of();
    }

    @Test
    void onlyTheMasterDeliversAndAPromotedSlaveDeliversWhatIsStillPendingOnce() {
        int masterHa = HaNode.freePort();
        HaNode master = HaNode.start(dir.resolve("master"), HaNode.freePort(), masterHa, "", "brokerRole",
                "ASYNC_MASTER", "timerFlushIntervalMs", "100");
        nodes.add(master);
        HaNode slave = HaNode.start(dir.resolve("slave"), HaNode.freePort(), HaNode.freePort(), "", "brokerRole",
                "SLAVE", "brokerId", "1", "haMasterAddress", "127.0.0.1:" + masterHa, "timerFlushIntervalMs", "100");
        nodes.add(slave);
        createTopic(master);
        // Stands in for the metadata sync (no name server here): the promoted slave serves the topic.
        createTopic(slave);
        assertThat(invoke(master, sendV2(TOPIC, 0, props("TIMER_DELAY_MS", "500", "UNIQ_KEY", "soon"),
                "soon".getBytes(StandardCharsets.UTF_8))).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(invoke(master, sendV2(TOPIC, 0, props("TIMER_DELAY_SEC", "5", "UNIQ_KEY", "later"),
                "later".getBytes(StandardCharsets.UTF_8))).code()).isEqualTo(ResponseCode.SUCCESS);

        Await.until("the first timer delivered by the master", WAIT, () -> bodies(master).contains("soon"));
        // The marker of the checkpoint that covers the delivery, replicated like the rest. A marker also
        // follows the checkpoint that indexed both timers, which may come after the delivery: wait until
        // the master has appended none for three checkpoint intervals (nothing is due for 4 s) and the
        // slave holds its whole log.
        long[] markers = {-1, System.nanoTime()};
        Await.until("the master's progress markers settled and the slave holding its whole log", WAIT, () -> {
            long appended = wheelEntries(master);
            if (appended != markers[0]) {
                markers[0] = appended;
                markers[1] = System.nanoTime();
                return false;
            }
            return System.nanoTime() - markers[1] > Duration.ofMillis(300).toNanos()
                    && slave.commitLogMax() == master.commitLogMax() && wheelEntries(slave) == appended;
        });
        assertThat(bodies(slave)).containsExactly("soon");

        master.close();
        nodes.remove(master);
        slave.binding().store().becomeMaster(1, 0);
        Await.until("the second timer delivered by the promoted slave", WAIT, () -> bodies(slave).contains("later"));
        assertThat(bodies(slave)).containsExactly("soon", "later");
    }
}
