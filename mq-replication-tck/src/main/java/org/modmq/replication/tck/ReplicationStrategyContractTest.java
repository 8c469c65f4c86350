package org.modmq.replication.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modmq.api.config.ConfigException;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.testkit.process.FreePort;

/**
 * The replication contract every {@link org.modmq.api.spi.replication.ReplicationStrategyProvider} must
 * pass, through the SPI only: strategies created from the provider, each over an in-memory
 * {@link MemoryReplicatedLog} and a {@link RecordingProgress}, talking over 127.0.0.1. A strategy's test
 * sources subclass it and return the provider:
 *
 * <pre>{@code
 * class MyStrategyContractTest extends ReplicationStrategyContractTest {
 *     @Override
 *     protected ReplicationStrategyProvider provider() {
 *         return new MyReplicationStrategyProvider();
 *     }
 * }
 * }</pre>
 *
 * <p>Inherited from {@link CatchUpContract}: catch-up from empty and from behind, progress reports, and the
 * replicated future. Here: role swaps with a new epoch that cut a diverged tail back to the epoch's start,
 * a replica of a newer epoch refusing a stale master, reconnection to a restarted master, close() freeing
 * the port, start() on a taken port, garbage on the HA port, and a malformed master address. Override
 * {@link #settings()} for the strategy's own keys (short redial delays make the reconnect case quicker)
 * and {@link #deviations()} to declare a case the strategy knowingly fails.
 */
@Timeout(120)
public abstract class ReplicationStrategyContractTest extends CatchUpContract {

    /** How long a replica is watched for doing what it must not. */
    private static final long NEVER_MILLIS = 1_500;

    /** For subclasses; JUnit creates one instance per test method. */
    protected ReplicationStrategyContractTest() {
    }

    @Test
    void rolesSwapInANewEpochAndTheOldMastersDivergedTailIsCut() {
        conformsTo(ContractCase.ROLE_SWAP_TRUNCATES_DIVERGED_TAIL);
        ReplicationNode a = node("a", 1, true);
        ReplicationNode b = node("b", 2, true);
        a.becomeMaster(1);
        b.becomeReplica(1, a);
        long common = writeMany(a, 150);
        awaitCaughtUp(a, b);
        b.becomeReplica(1, null);
        await("a to see b go", () -> a.progress().acks().isEmpty());
        long aEnd = writeMany(a, 80);
        assertThat(aEnd).as("a's tail that b never saw").isGreaterThan(common);

        a.becomeReplica(2, null);
        b.becomeMaster(2);
        assertThat(b.log().epochs()).containsExactly(new EpochEntry(1, 0), new EpochEntry(2, common));
        long bEnd = writeMany(b, 40);
        assertThat(bEnd).isNotEqualTo(aEnd);
        a.becomeReplica(2, b);
        awaitCaughtUp(b, a);
        assertThat(a.log().truncations()).as("a is cut back to epoch 2's start, through the log")
                .contains(common).allMatch(offset -> offset >= common);

        long more = writeMany(b, 40);
        awaitCaughtUp(b, a);
        await("b's progress to show a at " + more, () -> b.progress().acks().size() == 1
                && b.progress().acks().values().stream().allMatch(offset -> offset == more));
    }

    @Test
    void aReplicaOfANewerEpochDoesNotFollowAStaleMaster() throws Exception {
        conformsTo(ContractCase.STALE_MASTER_NOT_FOLLOWED);
        ReplicationNode a = node("a", 1, true);
        ReplicationNode b = node("b", 2, true);
        a.becomeMaster(1);
        b.becomeReplica(1, a);
        long common = writeMany(a, 50);
        awaitCaughtUp(a, b);
        // b is elected for epoch 3 and writes; a never hears of it and serves epoch 2.
        b.becomeMaster(3);
        long bEnd = writeMany(b, 30);
        a.becomeMaster(2);
        writeMany(a, 60);
        int appends = b.log().appendOffsets().size();
        b.becomeReplica(3, a);
        Thread.sleep(NEVER_MILLIS);
        assertThat(b.log().maxOffset()).as("b keeps what it wrote in epoch 3").isEqualTo(bEnd);
        assertThat(b.log().appendOffsets()).as("b takes nothing from a stale master").hasSize(appends);
        assertThat(b.log().truncations()).isEmpty();
        assertThat(b.log().epochs()).containsExactly(new EpochEntry(1, 0), new EpochEntry(3, common));
    }

    @ParameterizedTest(name = "epochs={0}")
    @ValueSource(booleans = {true, false})
    void aReplicaReconnectsToARestartedMaster(boolean epochs) {
        conformsTo(ContractCase.RECONNECT_AFTER_MASTER_RESTART);
        int epoch = epochs ? 1 : 0;
        ReplicationNode a = node("a", 1, epochs);
        ReplicationNode b = node("b", 2, epochs);
        a.becomeMaster(epoch);
        b.becomeReplica(epoch, a);
        writeMany(a, 50);
        awaitCaughtUp(a, b);
        a.restart();
        long end = writeMany(a, 50);
        awaitCaughtUp(a, b);
        await("the restarted master to see b at " + end, () -> a.progress().acks().values().contains(end));
    }

    @Test
    void closeIsIdempotentAndFreesThePortAtOnce() {
        conformsTo(ContractCase.CLOSE_RELEASES_PORT);
        ReplicationNode a = node("a", 1, true);
        ReplicationNode b = node("b", 2, true);
        a.becomeMaster(1);
        b.becomeReplica(1, a);
        writeMany(a, 20);
        awaitCaughtUp(a, b);
        a.strategy().close();
        a.strategy().close();
        b.strategy().close();
        assertThat(FreePort.accepts(a.haPort())).as("a closed master's port accepts nothing").isFalse();
        assertThat(FreePort.accepts(b.haPort())).as("a closed replica's port accepts nothing").isFalse();

        ReplicationNode again = create("a-again", 1, true, a.haPort());
        again.start();
        again.becomeMaster(1);
        ReplicationNode replicaAgain = create("b-again", 2, true, b.haPort());
        replicaAgain.start();
        replicaAgain.becomeReplica(1, again);
        writeMany(again, 20);
        awaitCaughtUp(again, replicaAgain);
    }

    @Test
    void startOnATakenPortFailsNamingTheAddress() throws Exception {
        conformsTo(ContractCase.TAKEN_PORT_FAILS_START);
        int port = FreePort.pick();
        try (ServerSocket taken = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(taken.isBound()).isTrue();
            ReplicationNode node = create("a", 1, true, port);
            assertThatThrownBy(node::start).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining(String.valueOf(port));
        }
    }

    @Test
    void garbageOnTheHaPortLeavesTheMasterServingItsReplicas() throws Exception {
        conformsTo(ContractCase.GARBAGE_INPUT_LEAVES_MASTER_SERVING);
        ReplicationNode a = node("a", 1, true);
        ReplicationNode b = node("b", 2, true);
        a.becomeMaster(1);
        b.becomeReplica(1, a);
        writeMany(a, 50);
        awaitCaughtUp(a, b);
        byte[] noise = new byte[64 * 1024];
        new Random(12).nextBytes(noise);
        byte[] ones = new byte[64];
        Arrays.fill(ones, (byte) 0xFF);
        try (Socket random = new Socket("127.0.0.1", a.haPort());
             Socket allOnes = new Socket("127.0.0.1", a.haPort())) {
            new Socket("127.0.0.1", a.haPort()).close();
            send(random, noise);
            send(allOnes, ones);
            writeMany(a, 50);
            awaitCaughtUp(a, b);
        }
        ReplicationNode c = node("c", 3, true);
        c.becomeReplica(1, a);
        writeMany(a, 20);
        awaitCaughtUp(a, b);
        awaitCaughtUp(a, c);
    }

    @Test
    void aMalformedMasterAddressIsRefused() {
        conformsTo(ContractCase.MALFORMED_MASTER_ADDRESS_REFUSED);
        ReplicationNode a = node("a", 1, true);
        ReplicationNode b = node("b", 2, true);
        a.becomeMaster(1);
        b.log().becomeReplica();
        for (String bad : new String[] {"no-port", "127.0.0.1:", "127.0.0.1:port", ":10912"}) {
            assertThatThrownBy(() -> b.strategy().becomeReplica(1, bad, 2)).as(bad)
                    .isInstanceOf(ConfigException.class);
        }
        b.becomeReplica(1, a);
        writeMany(a, 20);
        awaitCaughtUp(a, b);
    }

    /** Writes {@code bytes}; the master may close the connection first, which is its right. */
    private static void send(Socket socket, byte[] bytes) {
        try {
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
        } catch (IOException closedByTheMaster) {
            // the master refused the garbage by closing: what the contract allows
        }
    }
}
