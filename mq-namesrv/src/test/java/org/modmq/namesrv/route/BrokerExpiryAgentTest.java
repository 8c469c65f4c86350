package org.modmq.namesrv.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.namesrv.route.RouteFixtures.CLUSTER;
import static org.modmq.namesrv.route.RouteFixtures.MASTER_ADDR;
import static org.modmq.namesrv.route.RouteFixtures.master;
import static org.modmq.namesrv.route.RouteFixtures.table;
import static org.modmq.namesrv.route.RouteFixtures.topic;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.modmq.remoting.protocol.body.TopicConfigSerializeWrapper;
import org.modmq.testkit.ManualClock;

class BrokerExpiryAgentTest {

    private final ManualClock clock = new ManualClock(5_000_000);
    private final RouteTable routes = new RouteTable(clock, 120_000, false);
    private final List<Object> closed = new ArrayList<>();
    private final BrokerExpiryAgent agent = new BrokerExpiryAgent(routes, closed::add);
    private final TopicConfigSerializeWrapper topics = table(1, topic("TopicA", 4, 6), topic("TBW102", 8, 7));

    @Test
    void dropsABrokerOnlyAfterItsTimeoutAndClosesItsChannel() {
        routes.register(master("broker-a", topics));

        clock.advance(Duration.ofMillis(120_000));
        assertThat(agent.doWork()).isZero();
        assertThat(routes.route("TopicA")).isPresent();

        clock.advance(Duration.ofMillis(1));
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(routes.route("TopicA")).isEmpty();
        assertThat(routes.clusterInfo().brokerAddrTable()).isEmpty();
        assertThat(closed).containsExactly("channel-master");
        assertThat(agent.doWork()).isZero();
    }

    @Test
    void heartbeatPostponesExpiry() {
        routes.register(master("broker-a", topics));
        clock.advance(Duration.ofMillis(100_000));
        assertThat(routes.refresh(CLUSTER, MASTER_ADDR)).isTrue();
        clock.advance(Duration.ofMillis(100_000));
        assertThat(agent.doWork()).isZero();
        assertThat(routes.refresh(CLUSTER, "127.0.0.1:1")).isFalse();
    }

    @Test
    void honoursTheTimeoutTheBrokerAskedFor() {
        BrokerRegistration base = master("broker-a", topics);
        routes.register(new BrokerRegistration(base.clusterName(), base.brokerAddr(), base.brokerName(), 0,
                base.haServerAddr(), null, 10_000L, true, topics, null, null));
        clock.advance(Duration.ofMillis(10_001));
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(closed).isEmpty();
    }
}
