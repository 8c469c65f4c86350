package org.modmq.namesrv.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.namesrv.route.RouteFixtures.CLUSTER;
import static org.modmq.namesrv.route.RouteFixtures.MASTER_ADDR;
import static org.modmq.namesrv.route.RouteFixtures.SLAVE_ADDR;
import static org.modmq.namesrv.route.RouteFixtures.registration;
import static org.modmq.namesrv.route.RouteFixtures.topic;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.remoting.protocol.body.DataVersion;
import org.modmq.remoting.protocol.body.TopicConfigSerializeWrapper;
import org.modmq.testkit.ManualClock;

/**
 * The registration rules controller mode relies on (RocketMQ 5.3.3 {@code RouteInfoManager#registerBroker}):
 * an address holds one id, so a promoted slave re-registering as id 0 leaves no id-1 entry behind; of two
 * id-0 claimants the higher {@code stateVersion} (the master epoch, carried in the body's
 * {@code topicConfigSerializeWrapper.dataVersion}) wins and the lower is ignored and dropped from the
 * live table; a slave's answer names the current master and its HA address.
 */
class ControllerModeRegistrationTest {

    private final RouteTable routes = new RouteTable(new ManualClock(1_000_000), 120_000, false);

    private static TopicConfigSerializeWrapper epoch(long stateVersion, long counter) {
        return new TopicConfigSerializeWrapper(new DataVersion(counter, stateVersion, 1000 + counter),
                RouteFixtures.table(counter, topic("TopicA", 4, 6), topic("TBW102", 8, 7)).topicConfigTable());
    }

    @Test
    void aPromotedSlaveReRegisteringAsMasterLeavesNoEntryUnderItsOldId() {
        routes.register(registration("broker-a", MASTER_ADDR, 0, epoch(1, 1), "channel-master"));
        routes.register(registration("broker-a", SLAVE_ADDR, 1, epoch(1, 1), "channel-slave"));
        routes.removeBrokersOfChannel("channel-master");

        RegisterOutcome promoted = routes.register(registration("broker-a", SLAVE_ADDR, 0, epoch(2, 2), "channel-slave"));

        assertThat(promoted.status()).isEqualTo(RegisterOutcome.Status.REGISTERED);
        assertThat(routes.clusterInfo().brokerAddrTable().get("broker-a").brokerAddrs()).isEqualTo(Map.of(0L, SLAVE_ADDR));
        assertThat(routes.route("TopicA").orElseThrow().brokerDatas().get(0).brokerAddrs()).isEqualTo(Map.of(0L, SLAVE_ADDR));
    }

    @Test
    void ofTwoMasterClaimantsTheHigherStateVersionWinsWhicheverRegistersFirst() {
        routes.register(registration("broker-a", MASTER_ADDR, 0, epoch(1, 1), "channel-old"));
        RegisterOutcome newer = routes.register(registration("broker-a", SLAVE_ADDR, 0, epoch(2, 1), "channel-new"));
        assertThat(newer.status()).isEqualTo(RegisterOutcome.Status.REGISTERED);
        assertThat(routes.clusterInfo().brokerAddrTable().get("broker-a").brokerAddrs()).isEqualTo(Map.of(0L, SLAVE_ADDR));

        RegisterOutcome stale = routes.register(registration("broker-a", MASTER_ADDR, 0, epoch(1, 2), "channel-old"));
        assertThat(stale.status()).isEqualTo(RegisterOutcome.Status.STALE_STATE_VERSION);
        assertThat(routes.clusterInfo().brokerAddrTable().get("broker-a").brokerAddrs()).isEqualTo(Map.of(0L, SLAVE_ADDR));
        assertThat(routes.liveInfo(CLUSTER, MASTER_ADDR)).isEmpty();
        assertThat(routes.liveInfo(CLUSTER, SLAVE_ADDR)).isPresent();
    }

    @Test
    void theOldMasterRejoiningAsSlaveLearnsTheNewMasterAndItsHaAddress() {
        routes.register(registration("broker-a", SLAVE_ADDR, 0, epoch(2, 1), "channel-new"));
        RegisterOutcome slave = routes.register(registration("broker-a", MASTER_ADDR, 1, epoch(2, 1), "channel-old"));
        assertThat(slave).isEqualTo(new RegisterOutcome(RegisterOutcome.Status.REGISTERED, SLAVE_ADDR,
                SLAVE_ADDR.replace("911", "912")));
        assertThat(routes.clusterInfo().brokerAddrTable().get("broker-a").brokerAddrs())
                .isEqualTo(Map.of(0L, SLAVE_ADDR, 1L, MASTER_ADDR));
    }
}
