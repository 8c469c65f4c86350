package org.modmq.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A modmq slave ({@code haStrategy=pull}) follows an Apache RocketMQ 5.3.3 master over the classic HA
 * protocol: stock name server and stock ASYNC_MASTER, modmq SLAVE from the distribution learning the
 * master's HA address from the stock name server. A burst from the stock producer, a restart of the slave
 * (which then reports a non-zero offset) and a second burst leave the two CommitLogs byte-identical
 * over everything the master wrote (four segment files), and the stock pull client, with the master
 * gone, reads the messages back from the slave's own ConsumeQueues.
 */
@Tag("integration")
class ModmqSlaveFollowsRocketMqMasterTest {

    private static final Logger LOG = LoggerFactory.getLogger(ModmqSlaveFollowsRocketMqMasterTest.class);
    private static final String TOPIC = "InteropTopicA";
    /** Sent after the slave's restart: enough to cross into a fourth segment file. */
    private static final int RESTART_MESSAGES = 600;

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
                Scenario.awaitRoute(admin, TOPIC);
                phases.done("route of " + TOPIC + " published");
                ModmqDistribution.ModmqBroker slave = ModmqDistribution.startBroker(work, "modmq-slave", "SLAVE",
                        namesrv.address());
                Scenario.Burst burst;
                try (ChildProcess firstRun = slave.process()) {
                    phases.done("modmq slave started");
                    burst = Scenario.sendBurst(admin, namesrv.address(), TOPIC, masterAddr, firstRun.address(),
                            phases);
                    assertThat(firstRun.stop(ChildProcess.STOP_TIMEOUT)).as("modmq slave stops on SIGTERM").isTrue();
                }
                // Restarted, the slave reports its non-zero max offset and the stock master streams from there.
                try (ChildProcess slaveProcess = slave.process().restart(ModmqDistribution.START_TIMEOUT)) {
                    String slaveAddr = slaveProcess.address();
                    phases.done("modmq slave restarted");
                    burst = burst.then(Scenario.sendMore(admin, namesrv.address(), TOPIC, masterAddr, slaveAddr,
                            RESTART_MESSAGES, 2L, phases));
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
