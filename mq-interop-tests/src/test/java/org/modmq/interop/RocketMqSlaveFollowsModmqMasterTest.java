package org.modmq.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.ChildProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Apache RocketMQ 5.3.3 slave follows a modmq master ({@code haStrategy=pull}) over the classic HA
 * protocol: stock name server, modmq ASYNC_MASTER from the distribution, stock SLAVE learning the
 * master's HA address from the name server. After a burst from the stock producer the two CommitLogs
 * are byte-identical over everything the master wrote (several segment files).
 */
@Tag("integration")
class RocketMqSlaveFollowsModmqMasterTest {

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqSlaveFollowsModmqMasterTest.class);
    private static final String TOPIC = "InteropTopicB";

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void commitLogsAreIdentical(@TempDir Path work) {
        Phases phases = new Phases(LOG, "modmq master -> stock slave");
        try (ChildProcess namesrv = StockRocketMq.startNamesrv(work);
                StockAdmin admin = new StockAdmin(namesrv.address())) {
            ModmqDistribution.ModmqBroker master = ModmqDistribution.startBroker(work, "modmq-master", "ASYNC_MASTER",
                    namesrv.address());
            try (ChildProcess masterProcess = master.process()) {
                String masterAddr = masterProcess.address();
                Scenario.createTopic(admin, masterAddr, TOPIC);
                phases.done("stock name server and modmq master started, topic created");
                Scenario.awaitRoute(admin, TOPIC);
                phases.done("route of " + TOPIC + " published");
                StockRocketMq.StockBroker slave = StockRocketMq.startBroker(work, "stock-slave", "SLAVE",
                        namesrv.address());
                try (ChildProcess slaveProcess = slave.process()) {
                    phases.done("stock slave started");
                    Scenario.Burst burst = Scenario.sendBurst(admin, namesrv.address(), TOPIC, masterAddr,
                            slaveProcess.address(), phases);

                    assertThat(ChildProcess.stopAll(ChildProcess.STOP_TIMEOUT, slaveProcess, masterProcess))
                            .as("stock slave and modmq master stop on SIGTERM").isTrue();
                    phases.done("both stopped");
                    int files = CommitLogs.assertIdentical(master.commitLogDir(), slave.commitLogDir(),
                            burst.masterMax(), BrokerSettings.COMMIT_LOG_FILE_SIZE);
                    phases.done(burst.masterMax() + " bytes in " + files + " CommitLog files identical");
                }
            }
        }
    }
}
