package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.modmq.api.spi.storage.Segment;
import org.modmq.api.spi.storage.StorageBackend;

/**
 * Child process of {@link TruncationCrashTest}: opens a controller-mode replica store whose CommitLog
 * segments stop the writing thread at the first write made while the store's truncation marker exists
 * (the zeroing of a cut tail), prints {@code PARKED <segment file>} and waits there to be killed.
 * Arguments: store root, master HA address, epoch, broker id.
 */
public final class CrashingReplicaMain {

    private CrashingReplicaMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        Path root = Path.of(args[0]);
        Path marker = root.resolve("truncating");
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
        HaNode node = HaNode.open(root, TestStores.controller(Long.parseLong(args[3])), scheduler,
                backend -> new Parking(backend, marker, out));
        out.println("OPEN " + node.store.getCommitLogMaxOffset());
        node.store.becomeReplica(Integer.parseInt(args[2]), args[1], Long.parseLong(args[3]));
        // Bounded: the parent kills this process long before.
        new CountDownLatch(1).await(60, TimeUnit.SECONDS);
        Runtime.getRuntime().halt(3);
    }

    /** Delegates to a real backend; a CommitLog write while the marker exists parks the writer. */
    private static final class Parking implements StorageBackend {

        private final StorageBackend real;
        private final Path marker;
        private final PrintStream out;

        Parking(StorageBackend real, Path marker, PrintStream out) {
            this.real = real;
            this.marker = marker;
            this.out = out;
        }

        @Override
        public String name() {
            return real.name();
        }

        @Override
        public Segment open(Path file, int capacity) {
            Segment segment = real.open(file, capacity);
            if (!file.getParent().getFileName().toString().equals("commitlog")) {
                return segment;
            }
            return new Segment() {
                @Override
                public Path path() {
                    return segment.path();
                }

                @Override
                public int capacity() {
                    return segment.capacity();
                }

                @Override
                public void write(int position, ByteBuf source) {
                    if (Files.exists(marker)) {
                        out.println("PARKED " + file.getFileName() + " at " + position);
                        try {
                            new CountDownLatch(1).await(60, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        Runtime.getRuntime().halt(4);
                    }
                    segment.write(position, source);
                }

                @Override
                public ByteBuf read(int position, int length) {
                    return segment.read(position, length);
                }

                @Override
                public void flush(int upTo) {
                    segment.flush(upTo);
                }

                @Override
                public int durablePosition() {
                    return segment.durablePosition();
                }

                @Override
                public void warm() {
                    segment.warm();
                }

                @Override
                public void close() {
                    segment.close();
                }

                @Override
                public void delete() {
                    segment.delete();
                }
            };
        }

        @Override
        public void close() {
            real.close();
        }
    }
}
