package org.modmq.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;

/**
 * The AutoSwitch replication scenario both directions share, with one implementation as master and the
 * other as replica, both in controller mode under three modmq controllers and a stock name server:
 *
 * <ol>
 *   <li>the master starts first and the controllers elect it (id 1, epoch e1); the topic is created on it;</li>
 *   <li>the replica starts, learns the master's HA address, syncs from offset 0 and joins the SyncStateSet
 *       while a stock producer's burst crosses CommitLog files;</li>
 *   <li>the replica stops; once the SyncStateSet no longer holds it, more messages go to the master in e1;
 *       the master stops, restarts and is elected again in an epoch e2 &gt; e1 (as often as asked, the later
 *       times with nothing written since its last election); a second burst goes to it alone;</li>
 *   <li>the replica restarts holding part of e1's bytes: the handshake finds where the histories agree and
 *       it catches up, through the end of e1 and the start of e2 in one stream, back into the SyncStateSet
 *       of epoch e2;</li>
 *   <li>both answer the same epochs (GET_BROKER_EPOCH_CACHE); stock pulls sent to the replica's address
 *       read the messages from its own ConsumeQueues; once the replica and then the master stopped, the
 *       CommitLogs are byte-identical and the {@code epochFileCheckpoint} files equal.</li>
 * </ol>
 *
 * Used from one test thread.
 */
final class ControllerModeReplication {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Sent while the replica is down, after the master's new epoch: enough to reach another segment file. */
    private static final int SECOND_BURST = 800;
    /**
     * Sent in the first epoch after the replica stopped, so that its catch-up later streams the end of
     * that epoch and the start of the next one in one connection.
     */
    private static final int TAIL = 100;
    /** A stock master drops a disconnected replica only once it has not caught up for haMaxTimeSlaveNotCatchup (15 s). */
    private static final Duration SHRINK_WAIT = Duration.ofSeconds(45);

    /** A started broker: its process and its {@code storePathRootDir/commitlog}. */
    record Node(ChildProcess process, Path commitLogDir) {

        Path storeRoot() {
            return commitLogDir.getParent();
        }
    }

    /** Starts one broker in controller mode. */
    interface Launcher {
        Node start(String namesrvAddr, String controllerAddr);
    }

    /** What to do once the replica runs, before traffic (its address given). */
    interface ReplicaHook {
        void started(StockAdmin admin, String replicaAddr);
    }

    private final Path work;
    private final Phases phases;
    private final String topic;
    private final int masterRestarts;

    /**
     * @param masterRestarts how often the master is restarted (and elected again) while the replica is
     *     down, with nothing sent in between: from 2 on, the master is elected where its last epoch starts
     */
    ControllerModeReplication(Path work, Phases phases, String topic, int masterRestarts) {
        if (masterRestarts < 1) {
            throw new IllegalArgumentException("masterRestarts must be at least 1: " + masterRestarts);
        }
        this.masterRestarts = masterRestarts;
        this.work = Objects.requireNonNull(work, "work");
        this.phases = Objects.requireNonNull(phases, "phases");
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    /** Runs the scenario; every process it started is stopped when it returns or throws. */
    void run(Launcher masterLauncher, Launcher replicaLauncher, ReplicaHook replicaStarted) {
        List<ChildProcess> controllers = ModmqDistribution.startControllers(work);
        List<ChildProcess> running = new ArrayList<>();
        try (ChildProcess namesrv = StockRocketMq.startNamesrv(work);
                StockAdmin admin = new StockAdmin(namesrv.address())) {
            String controllerAddr = String.join(";", controllers.stream().map(ChildProcess::address).toList());
            ControllerView view = new ControllerView(admin, controllers.get(0).address());
            phases.done("stock name server and 3 modmq controllers started");

            Node master = masterLauncher.start(namesrv.address(), controllerAddr);
            running.add(master.process());
            String masterAddr = master.process().address();
            BrokerReplicasInfo.ReplicasInfo first = view.awaitMaster(masterAddr, 0, WAIT);
            assertThat(first.getMasterBrokerId()).as("the master's id").isEqualTo(1L);
            Scenario.createTopic(admin, masterAddr, topic);
            Scenario.awaitRoute(admin, topic);
            phases.done("master (id 1) of epoch " + first.getMasterEpoch() + ", topic routed");

            Node replica = replicaLauncher.start(namesrv.address(), controllerAddr);
            running.add(replica.process());
            String replicaAddr = replica.process().address();
            replicaStarted.started(admin, replicaAddr);
            phases.done("replica started");
            Scenario.Burst burst = Scenario.sendBurst(admin, namesrv.address(), topic, masterAddr, replicaAddr, phases);
            BrokerReplicasInfo.ReplicasInfo widened = view.awaitInSync(2, WAIT);
            assertThat(widened.getMasterEpoch()).isEqualTo(first.getMasterEpoch());
            phases.done("replica in the SyncStateSet of epoch " + widened.getSyncStateSetEpoch());

            assertThat(replica.process().stop(ChildProcess.STOP_TIMEOUT)).as("replica stops on SIGTERM").isTrue();
            BrokerReplicasInfo.ReplicasInfo shrunk = view.awaitInSync(1, SHRINK_WAIT);
            try (StockTraffic traffic = new StockTraffic(namesrv.address(), topic, 3L)) {
                traffic.send(TAIL);
                burst = burst.then(new Scenario.Burst(traffic.sent(), admin.commitLogMaxOffset(masterAddr)));
            }
            phases.done("replica stopped, SyncStateSet of epoch " + shrunk.getSyncStateSetEpoch() + " without it, "
                    + TAIL + " more messages in epoch " + first.getMasterEpoch());
            ChildProcess masterRun = master.process();
            BrokerReplicasInfo.ReplicasInfo second = first;
            for (int i = 0; i < masterRestarts; i++) {
                assertThat(masterRun.stop(ChildProcess.STOP_TIMEOUT)).as("master stops on SIGTERM").isTrue();
                running.clear();
                masterRun = masterRun.restart(ModmqDistribution.START_TIMEOUT);
                running.add(masterRun);
                second = view.awaitMaster(masterAddr, second.getMasterEpoch(), WAIT);
                assertThat(second.getMasterBrokerId()).isEqualTo(first.getMasterBrokerId());
                Await.until("the master registered as id 0 again", WAIT,
                        () -> masterAddr.equals(admin.routeBrokers(topic).get(0L)));
                phases.done("master restarted and elected in epoch " + second.getMasterEpoch());
            }
            try (StockTraffic traffic = new StockTraffic(namesrv.address(), topic, 2L)) {
                traffic.send(SECOND_BURST);
                burst = burst.then(new Scenario.Burst(traffic.sent(), admin.commitLogMaxOffset(masterAddr)));
            }
            phases.done(SECOND_BURST + " messages sent to the master alone");

            ChildProcess replicaRun = replica.process().restart(ModmqDistribution.START_TIMEOUT);
            running.add(replicaRun);
            long masterMax = burst.masterMax();
            Await.until("the replica to catch up to " + masterMax, WAIT,
                    () -> admin.commitLogMaxOffset(replicaAddr) == masterMax);
            BrokerReplicasInfo.ReplicasInfo rejoined = view.awaitInSync(2, WAIT);
            assertThat(rejoined.getMasterEpoch()).isEqualTo(second.getMasterEpoch());
            phases.done("replica restarted, caught up at " + masterMax + " and back in the SyncStateSet");

            List<String> masterEpochs = admin.epochs(masterAddr);
            assertThat(masterEpochs).as("the master's epochs").hasSize(2);
            assertThat(admin.epochs(replicaAddr)).as("the replica's epochs (GET_BROKER_EPOCH_CACHE)")
                    .isEqualTo(masterEpochs);
            int pulled = SlaveReader.assertServesAt(namesrv.address(), replicaAddr, burst.sent());
            phases.done(pulled + " messages pulled from the replica while the master runs");

            // The replica first: a master stopping first would hand the set to it in another epoch.
            assertThat(replicaRun.stop(ChildProcess.STOP_TIMEOUT)).as("replica stops on SIGTERM").isTrue();
            assertThat(masterRun.stop(ChildProcess.STOP_TIMEOUT)).as("master stops on SIGTERM").isTrue();
            int files = CommitLogs.assertIdentical(master.commitLogDir(), replica.commitLogDir(), masterMax,
                    BrokerSettings.COMMIT_LOG_FILE_SIZE);
            List<String> epochs = EpochCheckpoints.entries(master.storeRoot());
            assertThat(epochs).as("the master's epochFileCheckpoint").isEqualTo(masterEpochs);
            assertThat(EpochCheckpoints.entries(replica.storeRoot())).as("the replica's epochFileCheckpoint entries")
                    .isEqualTo(epochs);
            assertThat(EpochCheckpoints.text(replica.storeRoot()))
                    .as("the replica's epochFileCheckpoint, count and CRC included")
                    .isEqualTo(EpochCheckpoints.text(master.storeRoot()));
            phases.done(masterMax + " bytes in " + files + " CommitLog files identical, epochs " + epochs);
        } finally {
            running.forEach(ChildProcess::close);
            controllers.forEach(ChildProcess::close);
        }
    }
}
