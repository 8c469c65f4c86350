package org.modmq.namesrv.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.namesrv.route.RouteFixtures.CLUSTER;
import static org.modmq.namesrv.route.RouteFixtures.MASTER_ADDR;
import static org.modmq.namesrv.route.RouteFixtures.SLAVE_ADDR;
import static org.modmq.namesrv.route.RouteFixtures.master;
import static org.modmq.namesrv.route.RouteFixtures.registration;
import static org.modmq.namesrv.route.RouteFixtures.table;
import static org.modmq.namesrv.route.RouteFixtures.topic;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.namesrv.body.BrokerData;
import org.modmq.namesrv.body.QueueData;
import org.modmq.namesrv.body.TopicRouteData;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.TopicConfigSerializeWrapper;
import org.modmq.testkit.ManualClock;

class RouteTableTest {

    private final ManualClock clock = new ManualClock(1_000_000);
    private final RouteTable routes = new RouteTable(clock, 120_000, false);

    @Test
    void masterRegistrationCreatesRoutesAndClusterInfo() {
        RegisterOutcome outcome = routes.register(master("broker-a", table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7))));

        assertThat(outcome).isEqualTo(new RegisterOutcome(RegisterOutcome.Status.REGISTERED, null, null));
        TopicRouteData route = routes.route("TopicA").orElseThrow();
        assertThat(route.queueDatas()).containsExactly(new QueueData("broker-a", 6, 4, 0, 4));
        assertThat(route.brokerDatas()).containsExactly(
                new BrokerData(Map.of(0L, MASTER_ADDR), "broker-a", CLUSTER, false, null));
        assertThat(routes.clusterInfo().clusterAddrTable()).containsEntry(CLUSTER, java.util.Set.of("broker-a"));
        assertThat(routes.allTopics().topicList()).containsExactly("TBW102", "TopicA");
        assertThat(routes.topicsOfCluster(CLUSTER).topicList()).containsExactly("TBW102", "TopicA");
        assertThat(routes.topicsOfCluster("other").topicList()).isEmpty();
        assertThat(routes.route("Unknown")).isEmpty();
    }

    @Test
    void slaveLearnsLiveMasterAndNeverTouchesQueueData() {
        routes.register(master("broker-a", table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7))));
        RegisterOutcome slave = routes.register(registration("broker-a", SLAVE_ADDR, 1,
                table(1, topic("TopicA", 16, 6), topic("TBW102", 8, 7)), "channel-slave"));

        assertThat(slave).isEqualTo(new RegisterOutcome(RegisterOutcome.Status.REGISTERED, MASTER_ADDR, "127.0.0.1:20912"));
        TopicRouteData route = routes.route("TopicA").orElseThrow();
        assertThat(route.queueDatas()).containsExactly(new QueueData("broker-a", 6, 4, 0, 4));
        assertThat(route.brokerDatas().get(0).brokerAddrs()).isEqualTo(Map.of(0L, MASTER_ADDR, 1L, SLAVE_ADDR));
    }

    @Test
    void slaveGetsNoMasterInfoWhenMasterIsGone() {
        routes.register(master("broker-a", table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7))));
        routes.unregister(CLUSTER, MASTER_ADDR, "broker-a", 0);
        RegisterOutcome slave = routes.register(registration("broker-a", SLAVE_ADDR, 1,
                table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7)), "channel-slave"));
        assertThat(slave.masterAddr()).isNull();
        assertThat(slave.haServerAddr()).isNull();
    }

    @Test
    void refusesSingleTopicIncrementBeforeFullRegistrationAndChangesNothing() {
        RegisterOutcome outcome = routes.register(master("broker-a", table(1, topic("TopicA", 4, 6))));

        assertThat(outcome.status()).isEqualTo(RegisterOutcome.Status.INCREMENT_BEFORE_FULL_REGISTRATION);
        assertThat(routes.clusterInfo().brokerAddrTable()).isEmpty();
        assertThat(routes.clusterInfo().clusterAddrTable()).isEmpty();
        assertThat(routes.liveBrokerCount()).isZero();
        assertThat(routes.route("TopicA")).isEmpty();
    }

    @Test
    void incrementAfterFullRegistrationAddsTheTopicAndKeepsOthers() {
        routes.register(master("broker-a", table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7))));
        routes.register(master("broker-a", table(2, topic("TopicB", 2, 6))));
        assertThat(routes.allTopics().topicList()).containsExactly("TBW102", "TopicA", "TopicB");
    }

    @Test
    void deleteTopicWithBrokerRegistrationDropsUnlistedTopicsOnFullRegistration() {
        RouteTable deleting = new RouteTable(clock, 120_000, true);
        deleting.register(master("broker-a", table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7))));
        deleting.register(master("broker-a", table(2, topic("TopicB", 2, 6), topic("TBW102", 8, 7))));
        assertThat(deleting.allTopics().topicList()).containsExactly("TBW102", "TopicB");
    }

    @Test
    void queueDataChangesOnlyWithANewDataVersion() {
        TopicConfigSerializeWrapper v1 = table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7));
        routes.register(master("broker-a", v1));
        assertThat(routes.wipeWritePerm("broker-a")).isEqualTo(2);

        routes.register(master("broker-a", v1));
        assertThat(routes.route("TopicA").orElseThrow().queueDatas().get(0).perm()).isEqualTo(4);

        routes.register(master("broker-a", table(2, topic("TopicA", 4, 6), topic("TBW102", 8, 7))));
        assertThat(routes.route("TopicA").orElseThrow().queueDatas().get(0).perm()).isEqualTo(6);

        routes.wipeWritePerm("broker-a");
        assertThat(routes.addWritePerm("broker-a")).isEqualTo(2);
        assertThat(routes.route("TBW102").orElseThrow().queueDatas().get(0).perm()).isEqualTo(6);
    }

    @Test
    void unregisteringTheLastBrokerRemovesSetClusterAndTopics() {
        routes.register(master("broker-a", table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7))));
        routes.register(master("broker-b", table(1, topic("TopicB", 4, 6), topic("TBW102", 8, 7))));
        // broker-b registered at the same address for brevity; give it its own
        routes.register(registration("broker-b", "127.0.0.1:30911", 0,
                table(1, topic("TopicB", 4, 6), topic("TBW102", 8, 7)), "channel-b"));

        routes.unregister(CLUSTER, MASTER_ADDR, "broker-a", 0);

        assertThat(routes.route("TopicA")).isEmpty();
        assertThat(routes.route("TBW102").orElseThrow().queueDatas()).extracting(QueueData::brokerName)
                .containsExactly("broker-b");
        assertThat(routes.clusterInfo().brokerAddrTable()).containsOnlyKeys("broker-b");
        routes.unregister(CLUSTER, "127.0.0.1:30911", "broker-b", 0);
        assertThat(routes.clusterInfo().clusterAddrTable()).isEmpty();
        assertThat(routes.allTopics().topicList()).isEmpty();
        assertThat(routes.liveBrokerCount()).isZero();
    }

    @Test
    void queueDataStaysWhenOnlyTheMasterLeaves() {
        routes.register(master("broker-a", table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7))));
        routes.register(registration("broker-a", SLAVE_ADDR, 1, table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7)),
                "channel-slave"));
        routes.unregister(CLUSTER, MASTER_ADDR, "broker-a", 0);

        TopicRouteData route = routes.route("TopicA").orElseThrow();
        assertThat(route.brokerDatas().get(0).brokerAddrs()).isEqualTo(Map.of(1L, SLAVE_ADDR));
        assertThat(route.queueDatas()).hasSize(1);
    }

    @Test
    void promotedSlaveReplacesItsOldIdAtTheSameAddress() {
        routes.register(registration("broker-a", SLAVE_ADDR, 1, table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7)),
                "channel-slave"));
        routes.register(registration("broker-a", SLAVE_ADDR, 0, table(2, topic("TopicA", 4, 6), topic("TBW102", 8, 7)),
                "channel-slave"));
        assertThat(routes.clusterInfo().brokerAddrTable().get("broker-a").brokerAddrs())
                .isEqualTo(Map.of(0L, SLAVE_ADDR));
    }

    @Test
    void primeSlaveOfAFiveXSetWithoutMasterWritesQueueData() {
        routes.register(registration("broker-a", SLAVE_ADDR, 1, table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7)),
                "channel-slave"));
        assertThat(routes.route("TopicA").orElseThrow().queueDatas()).containsExactly(new QueueData("broker-a", 6, 4, 0, 4));
    }

    @Test
    void ignoresRegistrationWithOlderStateVersionForAnIdHeldElsewhere() {
        TopicConfigSerializeWrapper newer = new TopicConfigSerializeWrapper(new DataVersion(3, 5, 10),
                table(0, topic("TopicA", 4, 6), topic("TBW102", 8, 7)).topicConfigTable());
        routes.register(master("broker-a", newer));
        RegisterOutcome stale = routes.register(registration("broker-a", "127.0.0.1:40911", 0,
                table(9, topic("TopicA", 1, 6), topic("TBW102", 8, 7)), "channel-other"));

        assertThat(stale.status()).isEqualTo(RegisterOutcome.Status.STALE_STATE_VERSION);
        assertThat(routes.clusterInfo().brokerAddrTable().get("broker-a").brokerAddrs()).isEqualTo(Map.of(0L, MASTER_ADDR));
        assertThat(routes.liveInfo(CLUSTER, "127.0.0.1:40911")).isEmpty();
    }

    @Test
    void removesEveryBrokerOfAClosedChannel() {
        routes.register(master("broker-a", table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7))));
        assertThat(routes.removeBrokersOfChannel("channel-unrelated")).isZero();
        assertThat(routes.removeBrokersOfChannel("channel-master")).isEqualTo(1);
        assertThat(routes.route("TopicA")).isEmpty();
        assertThat(routes.clusterInfo().brokerAddrTable()).isEmpty();
    }

    @Test
    void dataVersionQueryComparesAndRefreshes() {
        TopicConfigSerializeWrapper v1 = table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7));
        assertThat(routes.checkDataVersion(CLUSTER, MASTER_ADDR, v1.dataVersion()))
                .isEqualTo(new DataVersionCheck(true, null));
        routes.register(master("broker-a", v1));
        clock.advance(Duration.ofMillis(5_000));
        assertThat(routes.checkDataVersion(CLUSTER, MASTER_ADDR, v1.dataVersion()))
                .isEqualTo(new DataVersionCheck(false, v1.dataVersion()));
        assertThat(routes.liveInfo(CLUSTER, MASTER_ADDR).orElseThrow().lastUpdateMillis()).isEqualTo(clock.millis());
        assertThat(routes.checkDataVersion(CLUSTER, MASTER_ADDR, new DataVersion(2, 0, 0)).changed()).isTrue();
    }

    @Test
    void registerTopicNeedsKnownBrokersAndDeleteTopicHonoursCluster() {
        routes.register(master("broker-a", table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7))));
        assertThat(routes.registerTopic("T2", List.of(new QueueData("broker-x", 6, 1, 0, 1)))).isFalse();
        assertThat(routes.registerTopic("T2", List.of(new QueueData(null, 6, 1, 0, 1)))).isFalse();
        assertThat(routes.route("T2")).isEmpty();
        assertThat(routes.registerTopic("T2", List.of(new QueueData("broker-a", 6, 2, 0, 2)))).isTrue();
        assertThat(routes.route("T2")).isPresent();

        routes.deleteTopic("T2", "otherCluster");
        assertThat(routes.route("T2")).isPresent();
        routes.deleteTopic("T2", CLUSTER);
        assertThat(routes.route("T2")).isEmpty();
        routes.deleteTopic("TopicA", null);
        assertThat(routes.route("TopicA")).isEmpty();
    }

    @Test
    void systemTopicsAreClusterAndBrokerNames() {
        routes.register(master("broker-a", table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7))));
        assertThat(routes.systemTopics().topicList()).containsExactly(CLUSTER, "broker-a");
        assertThat(routes.systemTopics().brokerAddr()).isEqualTo(MASTER_ADDR);
        assertThat(routes.memberGroup(CLUSTER, "broker-a").brokerAddrs()).isEqualTo(Map.of(0L, MASTER_ADDR));
        assertThat(routes.memberGroup(CLUSTER, "nope").brokerAddrs()).isEmpty();
        assertThat(routes.topicsWithSysFlag(flag -> (flag & 1) != 0).topicList()).isEmpty();
    }
}
