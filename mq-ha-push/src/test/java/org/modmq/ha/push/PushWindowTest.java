package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.burst;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.ha.push.HaFixture.Node;
import org.modmq.ha.push.wire.Welcome;

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
        try (Node master = fixture.open(root.resolve("master"), "brokerRole", "ASYNC_MASTER",
                "haPushWindowBytes", String.valueOf(WINDOW), "haTransferBatchSize", "16384",
                "haSendHeartbeatInterval", "5000", "haHousekeepingInterval", "30000");
             RawReplica replica = new RawReplica(master.haSocket())) {
            replica.hello(0);
            Welcome welcome = replica.welcome();
            assertThat(welcome.startOffset()).isZero();
            await(() -> master.store().replicas().size() == 1, WAIT, "raw replica to be streaming");
            long end = burst(master.store(), 300, 1000, "window");
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
            await(() -> master.store().replicas().get(0).ackedOffset() == end, WAIT, "final ack");
        }
    }
}
