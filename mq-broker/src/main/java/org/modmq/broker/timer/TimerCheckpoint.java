package org.modmq.broker.timer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The timer store's progress, written atomically (temp file, force, rename). Big-endian, 48 bytes:
 *
 * <pre>
 *  0      4      8       12      16            24            32            40      44      48
 *  +------+------+-------+-------+-------------+-------------+-------------+-------+-------+
 *  |MAGIC | VER  | PREC  | SLOTS | QUEUE_OFF   | READ_MS     | LOG_END     | 0     | CRC   |
 *  +------+------+-------+-------+-------------+-------------+-------------+-------+-------+
 * </pre>
 *
 * QUEUE_OFF: every {@code rmq_sys_wheel_timer} queue entry below it is in the timer log below LOG_END
 * (or was delivered); READ_MS: every slot before it was delivered and its deliveries are durable; LOG_END:
 * the log is forced up to here. PREC and SLOTS are the wheel geometry the log's chains were built with.
 * CRC is CRC32C of bytes 0..43. (RocketMQ's {@code config/timercheck} holds the same three positions.)
 *
 * @param precisionMs slot width of the log's chains
 * @param slots slot count of the log's chains
 * @param queueOffset next wheel-topic queue offset to index
 * @param readMs next slot to deliver
 * @param logEnd forced log end
 */
record TimerCheckpoint(int precisionMs, int slots, long queueOffset, long readMs, long logEnd) {

    private static final int MAGIC = 0x544D4350;
    private static final int VERSION = 1;
    private static final int SIZE = 48;

    /** The checkpoint in {@code file}; empty when there is none or it is not valid. */
    static Optional<TimerCheckpoint> read(Path file) {
        try {
            ByteBuffer buffer = ByteBuffer.wrap(Files.readAllBytes(file));
            if (buffer.limit() != SIZE || buffer.getInt(0) != MAGIC || buffer.getInt(4) != VERSION
                    || buffer.getInt(44) != crc(buffer)) {
                return Optional.empty();
            }
            return Optional.of(new TimerCheckpoint(buffer.getInt(8), buffer.getInt(12), buffer.getLong(16),
                    buffer.getLong(24), buffer.getLong(32)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the timer checkpoint " + file, e);
        }
    }

    /** Replaces {@code file} with this checkpoint. */
    void write(Path file) {
        ByteBuffer buffer = ByteBuffer.allocate(SIZE);
        buffer.putInt(MAGIC).putInt(VERSION).putInt(precisionMs).putInt(slots).putLong(queueOffset).putLong(readMs)
                .putLong(logEnd).putInt(0);
        buffer.putInt(44, crc(buffer));
        buffer.position(0).limit(SIZE);
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the timer checkpoint " + temp, e);
        }
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot replace the timer checkpoint " + file, e);
        }
    }

    private static int crc(ByteBuffer buffer) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.slice(0, 44));
        return (int) crc.getValue();
    }
}
