package org.modmq.ha.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.push.HaFixture.WAIT;
import static org.modmq.ha.push.HaFixture.await;
import static org.modmq.ha.push.HaFixture.awaitCaughtUp;
import static org.modmq.ha.push.HaFixture.burst;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.spi.TransportTls;
import org.modmq.api.spi.replication.HaPeerProof;
import org.modmq.ha.push.HaFixture.Node;
import org.modmq.testkit.process.TestCertificates;

/**
 * {@code haAuthSecret} on the push strategy: only a replica that proves the secret gets log bytes, with or
 * without TLS under the exchange; a raw socket sending bytes gets the challenge and nothing else.
 */
@Tag("integration")
@Timeout(60)
class HaAuthReplicationTest {

    private static final String SECRET = "a-shared-ha-secret-0123";
    private static final String[] QUICK = {"haHousekeepingInterval", "1500", "haSendHeartbeatInterval", "300"};

    @TempDir
    Path root;

    @RegisterExtension
    final HaFixture fixture = new HaFixture();

    private static String[] keys(String... more) {
        String[] all = Arrays.copyOf(QUICK, QUICK.length + more.length);
        System.arraycopy(more, 0, all, QUICK.length, more.length);
        return all;
    }

    private Node replica(String name, long id, String secret, Node master) {
        return secret == null
                ? fixture.open(root.resolve(name), keys("brokerRole", "SLAVE", "brokerId", String.valueOf(id),
                        "haMasterAddress", master.haAddress()))
                : fixture.open(root.resolve(name), keys("brokerRole", "SLAVE", "brokerId", String.valueOf(id),
                        "haMasterAddress", master.haAddress(), HaPeerProof.KEY, secret));
    }

    @Test
    void onlyTheReplicaWithTheSecretReplicates() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), keys("brokerRole", "ASYNC_MASTER", HaPeerProof.KEY, SECRET));
             Node good = replica("good", 1, SECRET, master);
             Node wrong = replica("wrong", 2, "another-secret-of-16+", master);
             Node none = replica("none", 3, null, master)) {
            await(() -> master.store().replicas().size() == 1, WAIT, "the good replica to connect");
            burst(master.store(), 200, 500, "a");
            awaitCaughtUp(master, good);
            // Long enough for the others to dial, be refused and redial more than once.
            Thread.sleep(3_500);
            burst(master.store(), 200, 500, "b");
            awaitCaughtUp(master, good);
            assertThat(HaFixture.bytesOf(good.log())).isEqualTo(HaFixture.bytesOf(master.log()));
            assertThat(wrong.store().getCommitLogMaxOffset()).as("wrong secret").isZero();
            assertThat(none.store().getCommitLogMaxOffset()).as("no secret").isZero();
            assertThat(master.store().replicas()).as("the master serves the good replica only").hasSize(1);
        }
    }

    @Test
    void theProofRunsInsideTls() throws Exception {
        TransportTls tls = TlsReplicationTest.jdkTls(TestCertificates.create(root.resolve("certs")));
        try (Node master = fixture.openWithTls(root.resolve("master"), tls,
                keys("brokerRole", "ASYNC_MASTER", HaPeerProof.KEY, SECRET));
             Node good = fixture.openWithTls(root.resolve("good"), tls, keys("brokerRole", "SLAVE", "brokerId", "1",
                     "haMasterAddress", master.haAddress(), HaPeerProof.KEY, SECRET));
             Node wrong = fixture.openWithTls(root.resolve("wrong"), tls, keys("brokerRole", "SLAVE", "brokerId", "2",
                     "haMasterAddress", master.haAddress(), HaPeerProof.KEY, "another-secret-of-16+"))) {
            await(() -> master.store().replicas().size() == 1, WAIT, "the good replica to connect over TLS");
            burst(master.store(), 100, 1000, "tls");
            awaitCaughtUp(master, good);
            assertThat(HaFixture.bytesOf(good.log())).isEqualTo(HaFixture.bytesOf(master.log()));
            assertThat(wrong.store().getCommitLogMaxOffset()).isZero();
            assertThat(master.store().replicas()).hasSize(1);
        }
    }

    @Test
    void aRawSocketGetsTheChallengeAndThenNothing() throws Exception {
        try (Node master = fixture.open(root.resolve("master"), keys("brokerRole", "ASYNC_MASTER", HaPeerProof.KEY, SECRET))) {
            burst(master.store(), 50, 200, "x");
            try (Socket socket = new Socket("127.0.0.1", master.haSocket().getPort())) {
                socket.setSoTimeout(10_000);
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                out.writeLong(0);
                out.write(new byte[HaPeerProof.PROOF_BYTES - 8]);
                out.flush();
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                InputStream in = socket.getInputStream();
                byte[] chunk = new byte[4096];
                try {
                    for (int n; (n = in.read(chunk)) >= 0; ) {
                        all.write(chunk, 0, n);
                    }
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("the master kept the unproved connection open", e);
                }
                byte[] received = all.toByteArray();
                assertThat(received).as("the challenge, nothing more").hasSize(HaPeerProof.CHALLENGE_BYTES);
                assertThat(new String(received, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("MQHA");
            }
            assertThat(master.store().replicas()).isEmpty();
        }
    }
}
