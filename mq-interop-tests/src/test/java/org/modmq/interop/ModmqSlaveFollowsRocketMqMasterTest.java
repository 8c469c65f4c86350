package org.modmq.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A modmq slave ({@code haStrategy=pull}) follows an Apache RocketMQ 5.3.3 master over the classic HA
 * protocol: stock name server and stock ASYNC_MASTER, modmq SLAVE from the distribution learning the
 * master's HA address from the stock name server. After a burst from the stock producer the two
 * CommitLogs are byte-identical over everything the master wrote (several segment files), and the stock
 * pull client, with the master gone, reads the messages back from the slave's own ConsumeQueues.
 */
@Tag("integration")
class ModmqSlaveFollowsRocketMqMasterTest {

    private static final Logger LOG = LoggerFactory.getLogger(ModmqSlaveFollowsRocketMqMasterTest.class);
    private static final String TOPIC = "InteropTopicA";

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void commitLogsAreIdenticalAndTheSlaveServesPulls(@TempDir Path work) {
        Phases phases = new Phases(LOG, "stock master -> modmq slave");
        try (ChildProcess namesrv = StockRocketMq.startNamesrv(work);
                StockAdmin admin = new StockAdmin(namesrv.address())) {
            StockRocketMq.StockBroker master = StockRocketMq.startBroker(work, "stock-master", "ASYNC_MASTER",
                    namesrv.address());
            try (ChildProcess masterProcess = master.process()) {
                String masterAddr = masterProcess.address();
                Scenario.createTopic(admin, masterAddr, TOPIC);
                phases.done("stock name server and master started, topic created");
                ModmqDistribution.ModmqBroker slave = ModmqDistribution.startBroker(work, "modmq-slave", "SLAVE",
                        namesrv.address());
                try (ChildProcess slaveProcess = slave.process()) {
                    String slaveAddr = slaveProcess.address();
                    phases.done("modmq slave started");
                    Scenario.Burst burst = Scenario.sendBurst(admin, namesrv.address(), TOPIC, masterAddr, slaveAddr,
                            phases);
                    // The slave serves a topic once its metadata sync from the master brought the config.
                    Await.value(TOPIC + " in the slave's topic configs", Duration.ofSeconds(30),
                            () -> admin.topics(slaveAddr).contains(TOPIC) ? Boolean.TRUE : null);
                    phases.done("topic config synced to the slave");

                    assertThat(masterProcess.stop(ChildProcess.STOP_TIMEOUT)).as("stock master stops on SIGTERM")
                            .isTrue();
                    Await.value("the route of " + TOPIC + " without the master", Duration.ofSeconds(30),
                            () -> admin.routeBrokers(TOPIC).containsKey(0L) ? null : Boolean.TRUE);
                    phases.done("master stopped");
                    int pulled = SlaveReader.assertServes(namesrv.address(), burst.sent());
                    phases.done(pulled + " messages pulled from the slave and checked");

                    assertThat(slaveProcess.stop(ChildProcess.STOP_TIMEOUT)).as("modmq slave stops on SIGTERM")
                            .isTrue();
                    int files = CommitLogs.assertIdentical(master.commitLogDir(), slave.commitLogDir(),
                            burst.masterMax(), BrokerSettings.COMMIT_LOG_FILE_SIZE);
                    phases.done(burst.masterMax() + " bytes in " + files + " CommitLog files identical");
                }
            }
        }
    }
}
