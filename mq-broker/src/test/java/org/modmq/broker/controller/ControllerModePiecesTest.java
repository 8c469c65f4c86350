package org.modmq.broker.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.message.PutStatus;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.BrokerConfigParser;
import org.modmq.broker.controller.BrokerIdentityFiles.Identity;
import org.modmq.store.PutResult;

@Timeout(30)
class ControllerModePiecesTest {

    @TempDir
    Path root;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void identityFilesUseRocketMqsFormat() throws Exception {
        BrokerIdentityFiles files = new BrokerIdentityFiles(root.resolve("brokerIdentity"));
        assertThat(files.assigned()).isEmpty();
        files.writeApplying(new Identity("DefaultCluster", "broker-a", 2, "127.0.0.1:10911;1700000000000"));
        assertThat(Files.readString(root.resolve("brokerIdentity-temp"), StandardCharsets.UTF_8))
                .isEqualTo("DefaultCluster#broker-a#2#127.0.0.1:10911;1700000000000");
        assertThat(files.applying()).get().extracting(Identity::brokerId).isEqualTo(2L);
        files.writeAssigned(files.applying().orElseThrow());
        assertThat(Files.readString(root.resolve("brokerIdentity"))).isEqualTo("DefaultCluster#broker-a#2");
        assertThat(root.resolve("brokerIdentity-temp")).doesNotExist();
        assertThat(files.assigned()).get().extracting(Identity::brokerId).isEqualTo(2L);
        Files.writeString(root.resolve("brokerIdentity"), "c#b#x");
        assertThatThrownBy(files::assigned).hasMessageContaining("not a number");
    }

    @Test
    void masterHaAddressComesFromItsConfig() {
        assertThat(MasterHaAddressResolver.haAddress("127.0.0.1:10911",
                "brokerIP2=127.0.0.2\nhaListenPort=20912\n".getBytes(StandardCharsets.UTF_8))).isEqualTo("127.0.0.2:20912");
        assertThat(MasterHaAddressResolver.haAddress("127.0.0.1:10911",
                "listenPort=10911\nhaListenPort=0\n".getBytes(StandardCharsets.UTF_8))).isEqualTo("127.0.0.1:10912");
    }

    @Test
    void leaseHoldsFromTheHeartbeatsSendTimeAndEndsOnRevoke() throws Exception {
        AtomicLong nanos = new AtomicLong(1_000_000_000L);
        WriteLease lease = new WriteLease(nanos::get, 1_500, scheduler);
        assertThat(lease.valid()).isFalse();
        long sent = lease.now();
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(5));
        lease.renew(sent);
        assertThat(lease.valid()).isTrue();
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1_494));
        assertThat(lease.valid()).isTrue();
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(2));
        assertThat(lease.valid()).isFalse();
        var waiting = lease.awaitValid(5_000);
        assertThat(waiting).isNotDone();
        lease.renew(lease.now());
        assertThat(waiting.get(5, TimeUnit.SECONDS)).isTrue();
        var revoked = new java.util.concurrent.CompletableFuture<Boolean>();
        lease.revoke("test");
        lease.awaitValid(5_000).thenAccept(revoked::complete);
        lease.revoke("again");
        assertThat(revoked.get(5, TimeUnit.SECONDS)).isFalse();
    }

    @Test
    void gateAnswersOnlyAMasterWithALease() throws Exception {
        AtomicLong nanos = new AtomicLong(0);
        AtomicBoolean master = new AtomicBoolean(true);
        WriteLease lease = new WriteLease(nanos::get, 1_000, scheduler);
        LeaseAckGate gate = new LeaseAckGate(lease, master::get, 50);
        PutResult stored = new PutResult(PutStatus.PUT_OK, 0, 100, 0, 1, 1L, List.of("id"), "");
        assertThat(gate.admit(stored).get(5, TimeUnit.SECONDS).status()).isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);
        lease.renew(nanos.get());
        assertThat(gate.admit(stored).get(5, TimeUnit.SECONDS).status()).isEqualTo(PutStatus.PUT_OK);
        master.set(false);
        assertThat(gate.admit(stored).get(5, TimeUnit.SECONDS).status()).isEqualTo(PutStatus.SERVICE_NOT_AVAILABLE);
    }

    @Test
    void controllerModeKeysAreParsedWithTheirLimits() {
        BrokerConfig config = BrokerConfigParser.parse(ConfigValues.of(Map.of("enableControllerMode", "true",
                "controllerAddr", "127.0.0.1:9878;127.0.0.1:9868", "storePathRootDir", root.toString(),
                "allAckInSyncStateSet", "true")), "test");
        assertThat(config.controller().enabled()).isTrue();
        assertThat(config.controller().controllerAddresses()).containsExactly("127.0.0.1:9878", "127.0.0.1:9868");
        assertThat(config.controller().leaseMillis()).isEqualTo(1_500);
        assertThat(config.controller().identityFile()).isEqualTo(root.resolve("brokerIdentity"));
        assertThatThrownBy(() -> BrokerConfigParser.parse(ConfigValues.of(Map.of("enableControllerMode", "true")),
                "test")).isInstanceOf(ConfigException.class).hasMessageContaining("controllerAddr");
        assertThatThrownBy(() -> BrokerConfigParser.parse(ConfigValues.of(Map.of("controllerAddr", "127.0.0.1:1",
                "brokerHeartbeatInterval", "1900")), "test")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("brokerHeartbeatInterval");
    }
}
