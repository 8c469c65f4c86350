package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.ha.pull.LogAssertions.assertSameLog;
import static org.modmq.ha.pull.LogAssertions.caughtUp;
import static org.modmq.ha.pull.TestStores.await;
import static org.modmq.ha.pull.TestStores.classicMaster;
import static org.modmq.ha.pull.TestStores.classicSlave;
import static org.modmq.ha.pull.TestStores.controller;
import static org.modmq.ha.pull.TestStores.putMany;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.replication.HaPeerProof;
import org.modmq.testkit.NettyLeakCheck;

/**
 * {@code haAuthSecret} on the pull strategy, classic and AutoSwitch: only a replica that proves the secret
 * gets log bytes; a stock replica's handshake gets the challenge and nothing else; a replica follows no master
 * that cannot prove the secret.
 */
@Tag("integration")
@Timeout(60)
@ExtendWith(NettyLeakCheck.class)
class HaAuthReplicationTest {

    private static final String SECRET = "a-shared-ha-secret-0123";

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    /** Short housekeeping, so that a peer that never proves anything is dropped soon. */
    private static ConfigValues withSecret(ConfigValues values, String secret) {
        ConfigValues quick = values.with("haHousekeepingInterval", "1500").with("haSendHeartbeatInterval", "300");
        return secret == null ? quick : quick.with(HaPeerProof.KEY, secret);
    }

    private HaNode master(boolean autoSwitch) {
        HaNode master = HaNode.open(dir.resolve("master"),
                withSecret(autoSwitch ? controller(1) : classicMaster("ASYNC_MASTER"), SECRET), scheduler);
        if (autoSwitch) {
            master.store.becomeMaster(1, 1);
        }
        return master;
    }

    private HaNode replica(boolean autoSwitch, String name, long id, String secret, HaNode master) {
        HaNode replica = HaNode.open(dir.resolve(name), withSecret(autoSwitch ? controller(id) : classicSlave(), secret),
                scheduler);
        replica.store.becomeReplica(autoSwitch ? 1 : 0, master.haAddress(), id);
        return replica;
    }

    @ParameterizedTest(name = "autoSwitch={0}")
    @ValueSource(booleans = {false, true})
    void onlyTheReplicaWithTheSecretReplicates(boolean autoSwitch) throws Exception {
        try (HaNode master = master(autoSwitch);
             HaNode good = replica(autoSwitch, "good", 2, SECRET, master);
             HaNode wrong = replica(autoSwitch, "wrong", 3, "another-secret-of-16+", master);
             HaNode none = replica(autoSwitch, "none", 4, null, master)) {
            long first = putMany(master.store, "a-", 300, 500);
            await("the good replica to reach " + first, () -> caughtUp(master.store, good.store, first));
            // Long enough for the others to dial, be refused and redial more than once.
            Thread.sleep(3_500);
            long end = putMany(master.store, "b-", 300, 500);
            await("the good replica to reach " + end, () -> caughtUp(master.store, good.store, end));
            assertSameLog(master.store, good.store, good.store.getCommitLogMinOffset());
            assertThat(wrong.store.getCommitLogMaxOffset()).as("wrong secret").isZero();
            assertThat(none.store.getCommitLogMaxOffset()).as("no secret").isZero();
            assertThat(master.store.replicas()).as("the master serves the good replica only").hasSize(1);
            assertThat(master.strategy.servedSessions()).isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "autoSwitch={0}")
    @ValueSource(booleans = {false, true})
    void aStockHandshakeGetsTheChallengeAndThenNothing(boolean autoSwitch) throws Exception {
        try (HaNode master = master(autoSwitch)) {
            putMany(master.store, "x-", 50, 200);
            try (Socket socket = new Socket("127.0.0.1", master.strategy.listenAddress().getPort())) {
                socket.setSoTimeout(10_000);
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                if (autoSwitch) {
                    // RocketMQ's AutoSwitch handshake (state, syncFromLastFile, asyncLearner, brokerId), a report
                    out.writeInt(1);
                    out.writeShort(0);
                    out.writeShort(0);
                    out.writeLong(5);
                    out.writeInt(2);
                    out.writeLong(0);
                } else {
                    out.writeLong(0);
                }
                out.flush();
                byte[] received = readUntilClosed(socket.getInputStream());
                assertThat(received).as("the challenge, nothing more").hasSize(HaPeerProof.CHALLENGE_BYTES);
                assertThat(new String(Arrays.copyOf(received, 4), StandardCharsets.US_ASCII)).isEqualTo("MQHA");
            }
            assertThat(master.store.replicas()).isEmpty();
            assertThat(master.strategy.servedSessions()).isZero();
        }
    }

    @Test
    void aReplicaDropsAMasterThatCannotProveTheSecret() throws Exception {
        try (ServerSocket impostor = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             HaNode replica = HaNode.open(dir.resolve("replica"), withSecret(classicSlave(), SECRET), scheduler)) {
            replica.store.becomeReplica(0, "127.0.0.1:" + impostor.getLocalPort(), 0);
            try (Socket socket = impostor.accept()) {
                socket.setSoTimeout(10_000);
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                // A well-formed challenge; the impostor cannot answer the proof, so it sends zeros, then data.
                byte[] challenge = new byte[HaPeerProof.CHALLENGE_BYTES];
                System.arraycopy("MQHA".getBytes(StandardCharsets.US_ASCII), 0, challenge, 0, 4);
                challenge[4] = 1;
                out.write(challenge);
                out.flush();
                byte[] proof = socket.getInputStream().readNBytes(HaPeerProof.PROOF_BYTES);
                assertThat(proof).hasSize(HaPeerProof.PROOF_BYTES);
                assertThat(new String(proof, StandardCharsets.ISO_8859_1)).doesNotContain(SECRET);
                ByteBuffer answerThenData = ByteBuffer.allocate(HaPeerProof.ANSWER_BYTES + 12 + 100);
                answerThenData.position(HaPeerProof.ANSWER_BYTES);
                answerThenData.putLong(0).putInt(100);
                try {
                    out.write(answerThenData.array());
                    out.flush();
                    assertThat(readUntilClosed(socket.getInputStream())).as("no offset report").isEmpty();
                } catch (SocketException closedByTheReplica) {
                    // a broken pipe or a reset: the replica closed at the bad answer, as it should
                }
            }
            assertThat(replica.store.getCommitLogMaxOffset()).as("nothing appended from the impostor").isZero();
        }
    }

    private static byte[] readUntilClosed(InputStream in) throws Exception {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        try {
            for (int n; (n = in.read(chunk)) >= 0; ) {
                all.write(chunk, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the master kept the unproved connection open; read " + all.size() + " bytes", e);
        }
        return all.toByteArray();
    }
}
