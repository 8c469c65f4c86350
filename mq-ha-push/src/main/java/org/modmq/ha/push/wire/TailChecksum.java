package org.modmq.ha.push.wire;

import io.netty.buffer.ByteBuf;
import java.util.zip.CRC32;
import org.modmq.api.spi.replication.ReplicatedLog;

/** CRC-32 of the bytes just below an offset of a log, for the hello's divergence check. Stateless. */
public final class TailChecksum {

    private TailChecksum() {
    }

    /** How many bytes below {@code end} a replica checks: up to {@link PushFrameLayout#CHECK_LENGTH}. */
    public static int checkLength(ReplicatedLog log, long end) {
        return (int) Math.max(0, Math.min(PushFrameLayout.CHECK_LENGTH, end - log.minOffset()));
    }

    /**
     * CRC-32 of {@code [end - length, end)} of {@code log}, reading across segment ends.
     *
     * @throws IndexOutOfBoundsException when the log does not hold that range
     */
    public static int crc(ReplicatedLog log, long end, int length) {
        CRC32 crc = new CRC32();
        long at = end - length;
        while (at < end) {
            ByteBuf view = log.read(at, (int) (end - at));
            try {
                int n = view.readableBytes();
                if (n == 0) {
                    throw new IndexOutOfBoundsException("log ends before " + end);
                }
                crc.update(view.nioBuffer());
                at += n;
            } finally {
                view.release();
            }
        }
        return (int) crc.getValue();
    }
}
