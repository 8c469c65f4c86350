package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.burst;
import static org.modmq.ha.push.HaFixture.haConfig;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.BrokerRole;
import org.modmq.store.MessageStore;

/** The master stops sending when a replica's unacknowledged bytes fill the window, and resumes on acks. */
@Tag("integration")
@Timeout(60)
class PushWindowTest {

    private static final int WINDOW = 64 * 1024;

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    @Test
    void stopsAtTheWindowAndResumesOnAcks() throws Exception {
        Path masterRoot = root.resolve("master");
        try (MessageStore masterStore = fixture.openStore(masterRoot);
             PushReplicationStrategy master = fixture.strategy(
                     haConfig("haPushWindowBytes", String.valueOf(WINDOW), "haTransferBatchSize", "16384",
                             "haSendHeartbeatInterval", "5000", "haHousekeepingInterval", "30000"),
                     BrokerRole.SYNC_MASTER, masterRoot, masterStore)) {
            master.start();
            try (RawReplica replica = new RawReplica(master.listenAddress())) {
                replica.hello(0);
                await(() -> master.replicas().size() == 1, Duration.ofSeconds(20), "raw replica to be streaming");
                long end = burst(masterStore, master, 300, 1000, "window");
                assertThat(end).isGreaterThan(4L * WINDOW);

                long received = replica.readData(0, WINDOW);
                assertThat(received).isEqualTo(WINDOW);
                assertThat(replica.drainData(300)).as("bytes beyond a full window").isZero();

                replica.ack(WINDOW / 2);
                received = replica.readData(received, WINDOW / 2);
                assertThat(replica.drainData(300)).as("bytes beyond the reopened window").isZero();

                while (received < end) {
                    replica.ack(received);
                    received = replica.readData(received, Math.min(WINDOW, end - received));
                }
                replica.ack(end);
                assertThat(received).isEqualTo(end);
                await(() -> master.replicas().get(0).ackedOffset() == end, Duration.ofSeconds(20), "final ack");
            }
        }
    }
}
