package org.modmq.store.faulty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageException;
import org.modmq.store.faulty.control.Fault;
import org.modmq.store.faulty.control.FaultControl;
import org.modmq.store.faulty.control.FaultyStorage;
import org.modmq.store.faulty.control.Operation;

/** Injected errors, slow forces and the power loss, over both real backends. */
@Timeout(30)
class FaultInjectionTest {

    private static final int CAPACITY = 64 * 1024;

    @TempDir
    Path root;

    @AfterEach
    void forget() {
        FaultyStorage.forget(root);
    }

    private StorageBackend open(String delegate) {
        FaultyStorageBackendProvider provider = new FaultyStorageBackendProvider();
        return provider.create(PluginConfig.of(provider.configKeys(),
                ConfigValues.empty().with(FaultyStorage.DELEGATE_KEY, delegate)), TestContext.of(root));
    }

    private static ByteBuf bytes(int length, int fill) {
        byte[] data = new byte[length];
        Arrays.fill(data, (byte) fill);
        return Unpooled.wrappedBuffer(data);
    }

    private static byte[] read(Segment segment, int position, int length) {
        ByteBuf view = segment.read(position, length);
        try {
            byte[] out = new byte[length];
            view.getBytes(view.readerIndex(), out);
            return out;
        } finally {
            view.release();
        }
    }

    private static byte[] filled(int length, int fill) {
        byte[] data = new byte[length];
        Arrays.fill(data, (byte) fill);
        return data;
    }

    @ParameterizedTest
    @ValueSource(strings = {"mmap", "direct"})
    void powerLossKeepsExactlyWhatWasForced(String delegate) {
        Path file = root.resolve("seg");
        FaultControl control = FaultyStorage.control(root);
        StorageBackend backend = open(delegate);
        Segment segment = backend.open(file, CAPACITY);
        segment.write(0, bytes(10_000, 1));
        segment.flush(6_000);                 // [0, 6000) durable, [6000, 10000) not
        segment.write(2_000, bytes(1_000, 2)); // overwrites durable bytes, not forced
        segment.write(20_000, bytes(5_000, 3));
        assertThat(FaultyStorage.unforcedBytes(backend)).isEqualTo(4_000 + 1_000 + 5_000);
        control.powerLoss();
        assertThatThrownBy(() -> segment.write(0, bytes(1, 9))).isInstanceOf(StorageException.class)
                .hasMessageContaining("power");
        assertThatThrownBy(() -> backend.open(root.resolve("other"), CAPACITY)).isInstanceOf(StorageException.class);
        backend.close();

        try (StorageBackend reopened = open(delegate); Segment after = reopened.open(file, CAPACITY)) {
            assertThat(read(after, 0, 6_000)).isEqualTo(filled(6_000, 1));
            assertThat(read(after, 6_000, 4_000)).isEqualTo(filled(4_000, 0));
            assertThat(read(after, 20_000, 5_000)).isEqualTo(filled(5_000, 0));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mmap", "direct"})
    void simulatedForcesDecideWhatSurvivesAndCloseForcesForReal(String delegate) {
        Path file = root.resolve("seg");
        FaultControl control = FaultyStorage.control(root);
        control.simulateForces(true);
        StorageBackend backend = open(delegate);
        Segment segment = backend.open(file, CAPACITY);
        segment.write(0, bytes(8_000, 4));
        segment.flush(5_000);
        assertThat(segment.durablePosition()).isEqualTo(5_000);
        control.powerLoss();
        backend.close();
        try (StorageBackend reopened = open(delegate); Segment after = reopened.open(file, CAPACITY)) {
            assertThat(read(after, 0, 5_000)).isEqualTo(filled(5_000, 4));
            assertThat(read(after, 5_000, 3_000)).isEqualTo(filled(3_000, 0));
            after.write(5_000, bytes(3_000, 6));
            after.flush(8_000);
        }
        try (StorageBackend reopened = open(delegate); Segment after = reopened.open(file, CAPACITY)) {
            assertThat(read(after, 5_000, 3_000)).as("a clean close forces what was flushed").isEqualTo(filled(3_000, 6));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mmap", "direct"})
    void tornWriteLeavesItsFirstHalfAndAnInjectedError(String delegate) {
        FaultControl control = FaultyStorage.control(root);
        try (StorageBackend backend = open(delegate); Segment segment = backend.open(root.resolve("seg"), CAPACITY)) {
            control.fail(Operation.WRITE, Fault.ENOSPC);
            assertThatThrownBy(() -> segment.write(0, bytes(100, 7))).isInstanceOf(StorageException.class)
                    .hasMessageContaining(Fault.ENOSPC.message()).hasRootCauseMessage(Fault.ENOSPC.message()
                            + " (ENOSPC, injected)");
            assertThat(read(segment, 0, 100)).isEqualTo(concat(filled(50, 7), filled(50, 0)));
            control.clear(Operation.WRITE);
            segment.write(0, bytes(100, 8));
            assertThat(read(segment, 0, 100)).isEqualTo(filled(100, 8));
            assertThat(control.injected(Operation.WRITE)).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mmap", "direct"})
    void failedForceMakesNothingDurable(String delegate) {
        Path file = root.resolve("seg");
        FaultControl control = FaultyStorage.control(root);
        StorageBackend backend = open(delegate);
        Segment segment = backend.open(file, CAPACITY);
        segment.write(0, bytes(4_096, 5));
        control.fail(Operation.FORCE, Fault.EIO);
        assertThatThrownBy(() -> segment.flush(4_096)).isInstanceOf(StorageException.class)
                .hasMessageContaining(Fault.EIO.message());
        assertThat(segment.durablePosition()).isZero();
        control.powerLoss();
        backend.close();
        try (StorageBackend reopened = open(delegate); Segment after = reopened.open(file, CAPACITY)) {
            assertThat(read(after, 0, 4_096)).isEqualTo(filled(4_096, 0));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mmap", "direct"})
    void readAndOpenFaultsAreStorageExceptions(String delegate) {
        FaultControl control = FaultyStorage.control(root);
        try (StorageBackend backend = open(delegate); Segment segment = backend.open(root.resolve("seg"), CAPACITY)) {
            segment.write(0, bytes(10, 1));
            control.fail(Operation.READ, Fault.EIO, path -> path.getFileName().toString().equals("seg"));
            assertThatThrownBy(() -> segment.read(0, 10)).isInstanceOf(StorageException.class);
            control.fail(Operation.OPEN, Fault.ENOSPC);
            assertThatThrownBy(() -> backend.open(root.resolve("next"), CAPACITY)).isInstanceOf(StorageException.class)
                    .hasMessageContaining(Fault.ENOSPC.message());
            assertThat(root.resolve("next")).doesNotExist();
            control.clearAll();
            assertThat(read(segment, 0, 10)).isEqualTo(filled(10, 1));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mmap"})
    void slowForceWaitsUntilTheDelayIsLifted(String delegate) throws Exception {
        FaultControl control = FaultyStorage.control(root);
        try (StorageBackend backend = open(delegate); Segment segment = backend.open(root.resolve("seg"), CAPACITY)) {
            segment.write(0, bytes(10, 1));
            control.slowForces(Duration.ofMinutes(5));
            CompletableFuture<Void> force = CompletableFuture.runAsync(() -> segment.flush(10));
            assertThat(force).isNotDone();
            control.slowForces(Duration.ZERO);
            force.get(10, TimeUnit.SECONDS);
            assertThat(segment.durablePosition()).isEqualTo(10);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
