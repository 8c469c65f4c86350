package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.ChildProcess;

/**
 * The distribution's jars on the class path instead of the module path:
 * {@code java -cp 'lib/*:plugins/*' org.modmq.namesrv.NamesrvStartup}. Everything that relies on
 * module descriptors (service binding through {@code provides}, {@code opens} for Jackson) is then
 * replaced by its class-path counterpart, which this checks end to end with a registration and a
 * route lookup by the stock client.
 */
@Tag("integration")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClasspathNamesrvTest {

    @TempDir
    Path workDir;

    @Test
    void servesRegistrationAndRouteOnTheClassPath() throws Exception {
        StockRegistrar.FakeBroker broker = new StockRegistrar.FakeBroker(
                "CpCluster", "broker-cp", 0, "127.0.0.1:3911", "127.0.0.1:3912");
        try (ChildProcess namesrv = Distribution.located().startNamesrvOnClasspath(workDir);
             StockRegistrar registrar = new StockRegistrar();
             StockAdmin admin = StockAdmin.start(namesrv.address())) {
            RemotingCommand response = registrar.register(namesrv.address(), broker, List.of(
                    StockRegistrar.topic("CpTopic", 8, 8, 6), StockRegistrar.topic("CpOther", 1, 1, 6)), 1);
            assertThat(response.getCode()).as(response.getRemark()).isEqualTo(ResponseCode.SUCCESS);

            TopicRouteData route = admin.ext().examineTopicRouteInfo("CpTopic");

            assertThat(route.getQueueDatas()).singleElement().satisfies(queue -> {
                assertThat(queue.getBrokerName()).isEqualTo("broker-cp");
                assertThat(queue.getReadQueueNums()).isEqualTo(8);
                assertThat(queue.getWriteQueueNums()).isEqualTo(8);
                assertThat(queue.getPerm()).isEqualTo(6);
            });
            assertThat(route.getBrokerDatas()).singleElement().satisfies(data -> {
                assertThat(data.getCluster()).isEqualTo("CpCluster");
                assertThat(data.getBrokerAddrs()).isEqualTo(Map.of(0L, "127.0.0.1:3911"));
            });
            assertThat(namesrv.output()).contains("The Name Server boot success");
        }
    }
}
