package org.modmq.broker.timer;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * One timer log record: a timer linked into one wheel slot. Big-endian, 48 bytes:
 *
 * <pre>
 *  0      4      8             16            24            32                40      44      48
 *  +------+------+-------------+-------------+-------------+-----------------+-------+-------+
 *  |MAGIC | CRC  | PREV_POS    | SLOT_MS     | DELIVER_MS  | COMMITLOG_OFFSET| SIZE  | 0     |
 *  +------+------+-------------+-------------+-------------+-----------------+-------+-------+
 * </pre>
 *
 * MAGIC {@code 0x544D5231} ("TMR1"); CRC is CRC32C of bytes 8..47; PREV_POS the log position of the
 * slot's previous record in the same round, -1 for the first; SLOT_MS the slot the record is linked
 * into; DELIVER_MS the timer's {@code TIMER_OUT_MS} (later than SLOT_MS for a timer beyond the wheel's
 * window, which rolls on when its slot comes); COMMITLOG_OFFSET and SIZE locate the stored
 * {@code rmq_sys_wheel_timer} message. (RocketMQ's TimerLog unit is 52 bytes with a relative delay and a
 * topic hash instead.)
 *
 * @param prevPos previous record of the slot, -1 for none
 * @param slotMs slot start, ms
 * @param deliverMs the timer's slot time ({@code TIMER_OUT_MS}), ms
 * @param commitLogOffset where the message starts in the CommitLog
 * @param size the stored message's size
 */
record TimerRecord(long prevPos, long slotMs, long deliverMs, long commitLogOffset, int size) {

    static final int SIZE = 48;
    static final int MAGIC = 0x544D5231;

    /** Writes the record at {@code buffer}'s position, advancing it. */
    void writeTo(ByteBuffer buffer) {
        int start = buffer.position();
        buffer.putInt(MAGIC).putInt(0).putLong(prevPos).putLong(slotMs).putLong(deliverMs)
                .putLong(commitLogOffset).putInt(size).putInt(0);
        buffer.putInt(start + 4, crc(buffer, start));
    }

    /** The record at {@code start} of {@code buffer} (absolute reads), or null when it is not a whole valid one. */
    static TimerRecord readFrom(ByteBuffer buffer, int start) {
        if (buffer.limit() - start < SIZE || buffer.getInt(start) != MAGIC || buffer.getInt(start + 4) != crc(buffer, start)) {
            return null;
        }
        return new TimerRecord(buffer.getLong(start + 8), buffer.getLong(start + 16), buffer.getLong(start + 24),
                buffer.getLong(start + 32), buffer.getInt(start + 40));
    }

    private static int crc(ByteBuffer buffer, int start) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.slice(start + 8, SIZE - 8));
        return (int) crc.getValue();
    }
}
