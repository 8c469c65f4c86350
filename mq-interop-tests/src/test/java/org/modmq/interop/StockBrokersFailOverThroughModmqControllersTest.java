package org.modmq.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.header.controller.GetMetaDataResponseHeader;
import org.apache.rocketmq.remoting.protocol.header.controller.GetReplicaInfoRequestHeader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two Apache RocketMQ 5.3.3 brokers in controller mode ({@code enableControllerMode=true}) use three modmq
 * controllers ({@code bin/mqcontroller}) and a stock name server: they get their ids from modmq, one is
 * elected master, the other joins the sync-state set; after {@code kill -9} of the master the other becomes
 * master (in the controllers' 1004/1006 answers and as id 0 in the stock name server's route) and a stock
 * producer sends to it. This is the proof that the controller speaks RocketMQ's protocol.
 */
@Tag("integration")
class StockBrokersFailOverThroughModmqControllersTest {

    private static final Logger LOG = LoggerFactory.getLogger(StockBrokersFailOverThroughModmqControllersTest.class);
    private static final String TOPIC = "InteropFailover";
    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aStockReplicaTakesOverWhenTheStockMasterIsKilled(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path work) throws Exception {
        Phases phases = new Phases(LOG, "stock brokers, modmq controllers");
        List<ChildProcess> controllers = ModmqDistribution.startControllers(work);
        List<ChildProcess> brokers = new ArrayList<>();
        NettyRemotingClient raw = new NettyRemotingClient(new NettyClientConfig());
        raw.start();
        try (ChildProcess namesrv = StockRocketMq.startNamesrv(work);
                StockAdmin admin = new StockAdmin(namesrv.address())) {
            String controllerAddr = String.join(";", controllers.stream().map(ChildProcess::address).toList());
            String someController = controllers.get(0).address();
            Await.until("a controller leader", WAIT, () -> leaderAddress(raw, someController) != null);
            phases.done("stock name server and 3 modmq controllers started");

            brokers.add(StockRocketMq.startControllerModeBroker(work, "stock-a", namesrv.address(), controllerAddr).process());
            BrokerReplicasInfo.ReplicasInfo first = Await.value("a master elected", WAIT,
                    () -> mastered(admin, someController));
            String masterAddr = first.getMasterAddress();
            assertThat(masterAddr).isEqualTo(brokers.get(0).address());
            assertThat(first.getMasterBrokerId()).isEqualTo(1L);
            brokers.add(StockRocketMq.startControllerModeBroker(work, "stock-b", namesrv.address(), controllerAddr).process());
            String replicaAddr = brokers.get(1).address();
            phases.done("stock-a elected master (id 1), stock-b started");

            Scenario.createTopic(admin, masterAddr, TOPIC);
            Await.value(replicaAddr + " to take " + TOPIC, WAIT, () -> {
                admin.createTopic(replicaAddr, TOPIC, 4);
                return Boolean.TRUE;
            });
            Scenario.awaitRoute(admin, TOPIC);
            try (StockTraffic traffic = new StockTraffic(namesrv.address(), TOPIC, 7)) {
                traffic.send(20);
            }
            BrokerReplicasInfo.ReplicasInfo widened = Await.value("stock-b in the sync-state set", WAIT, () -> {
                BrokerReplicasInfo.ReplicasInfo info = admin.syncStateData(someController, BrokerSettings.BROKER_NAME);
                return info != null && info.getInSyncReplicas().size() == 2 ? info : null;
            });
            assertThat(widened.getNotInSyncReplicas()).isEmpty();
            assertThat(admin.registeredBrokers(BrokerSettings.BROKER_NAME)).containsEntry(0L, masterAddr);
            phases.done("20 messages sent, sync-state set {1, 2} at epoch " + widened.getSyncStateSetEpoch());

            long killed = System.nanoTime();
            brokers.get(0).kill();
            BrokerReplicasInfo.ReplicasInfo after = Await.value("stock-b elected by the controllers", WAIT, () -> {
                BrokerReplicasInfo.ReplicasInfo info = admin.syncStateData(someController, BrokerSettings.BROKER_NAME);
                return info != null && replicaAddr.equals(info.getMasterAddress()) ? info : null;
            });
            long electedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            assertThat(after.getMasterBrokerId()).isEqualTo(2L);
            assertThat(after.getMasterEpoch()).isEqualTo(first.getMasterEpoch() + 1);
            RemotingCommand replicaInfo = raw.invokeSync(leaderAddress(raw, someController), RemotingCommand.createRequestCommand(
                    RequestCode.CONTROLLER_GET_REPLICA_INFO, new GetReplicaInfoRequestHeader(BrokerSettings.BROKER_NAME)), 3000);
            assertThat(replicaInfo.getExtFields()).containsEntry("masterBrokerId", "2").containsEntry("masterAddress", replicaAddr);
            Await.until("stock-b registered as id 0 with the stock name server", WAIT,
                    () -> replicaAddr.equals(admin.routeBrokers(TOPIC).get(0L)));
            long routedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            LOG.warn("kill -9 of the stock master: modmq controllers elected stock-b after <= {} ms, name server route"
                    + " id 0 after <= {} ms", electedMillis, routedMillis);
            phases.done("stock-a killed; stock-b master at epoch " + after.getMasterEpoch());

            try (StockTraffic traffic = new StockTraffic(namesrv.address(), TOPIC, 8)) {
                traffic.send(5);
            }
            phases.done("5 messages sent to the new master");
        } finally {
            raw.shutdown();
            brokers.forEach(ChildProcess::close);
            controllers.forEach(ChildProcess::close);
        }
    }

    private static BrokerReplicasInfo.ReplicasInfo mastered(StockAdmin admin, String controller) {
        try {
            BrokerReplicasInfo.ReplicasInfo info = admin.syncStateData(controller, BrokerSettings.BROKER_NAME);
            return info != null && info.getMasterAddress() != null ? info : null;
        } catch (IllegalStateException e) {
            return null;
        }
    }

    private static String leaderAddress(NettyRemotingClient raw, String controller) {
        try {
            RemotingCommand response = raw.invokeSync(controller,
                    RemotingCommand.createRequestCommand(RequestCode.CONTROLLER_GET_METADATA_INFO, null), 3000);
            GetMetaDataResponseHeader header = response.decodeCommandCustomHeader(GetMetaDataResponseHeader.class);
            String leader = header.getControllerLeaderAddress();
            return leader == null || leader.isEmpty() ? null : leader;
        } catch (Exception e) {
            return null;
        }
    }

}
