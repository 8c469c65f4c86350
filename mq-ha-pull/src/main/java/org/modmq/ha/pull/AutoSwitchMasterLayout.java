package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import org.modmq.api.spi.replication.EpochEntry;

/**
 * AutoSwitch HA frames a master sends to a replica (RocketMQ {@code AutoSwitchHAConnection}); all
 * integers big-endian. Every frame starts with the master's {@link AutoSwitchState} code and the body
 * size.
 *
 * <pre>
 * handshake answer (RocketMQ HANDSHAKE_HEADER_SIZE = 20, then EPOCH_ENTRY_SIZE = 12 per entry)
 * +-------------------+------------------+---------------------+-------------------+------------------------+
 * | int32             | int32 bodySize   | int64 offset        | int32 epoch       | body: bodySize / 12 x  |
 * | currentState      | 12 x entries     | master's max phy    | master's last     | +--------------------+ |
 * | 1 (HANDSHAKE)     |                  | offset              | epoch, -1 if none | | int32 epoch        | |
 * |                   |                  |                     |                   | | int64 startOffset  | |
 * |                   |                  |                     |                   | +--------------------+ |
 * +-------------------+------------------+---------------------+-------------------+------------------------+
 *   offset 0            4                  8                     16                  20
 *   entries oldest first: the master's whole epoch file
 *
 * transfer frame (RocketMQ TRANSFER_HEADER_SIZE = 36)
 * +----------+----------+-------------+----------+------------------+-----------------+------------------+
 * | int32    | int32    | int64       | int32    | int64            | int64           | body: bodySize   |
 * | current  | bodySize | offset      | epoch    | epochStartOffset | confirmOffset   | raw CommitLog    |
 * | State    |          | phy offset  | of the   | where that epoch | master's confirm| bytes            |
 * | 2        |          | of byte 0   | bytes    | starts           | offset          |                  |
 * |(TRANSFER)|          |             |          |                  |                 |                  |
 * +----------+----------+-------------+----------+------------------+-----------------+------------------+
 *   offset 0   4          8             16         20                 28                36
 *   bodySize 0 = heartbeat, offset = the next byte to be sent. A body never crosses an epoch's end nor the
 *   end of the CommitLog file it starts in and is at most haTransferBatchSize bytes.
 * </pre>
 *
 * <p>RocketMQ labels a body that ends exactly at an epoch's end with the next epoch; a modmq master labels
 * every body with the epoch its bytes belong to, and a modmq replica accepts either.
 */
final class AutoSwitchMasterLayout {

    /** Bytes of the handshake answer's header. */
    static final int HANDSHAKE_HEADER_LENGTH = 20;
    /** Bytes of a transfer frame's header. */
    static final int TRANSFER_HEADER_LENGTH = 36;
    /** Bytes of one epoch entry in the handshake body. */
    static final int EPOCH_ENTRY_LENGTH = 12;
    /** Both headers: where the state code, the body size, the offset and the epoch sit. */
    static final int STATE_OFFSET = 0;
    static final int BODY_SIZE_OFFSET = 4;
    static final int OFFSET_OFFSET = 8;
    static final int EPOCH_OFFSET = 16;
    /** Transfer header: where epochStartOffset and confirmOffset sit. */
    static final int EPOCH_START_OFFSET = 20;
    static final int CONFIRM_OFFSET = 28;
    /** Largest body a replica accepts (RocketMQ's replica reads into a 4 MiB buffer). */
    static final int MAX_BODY = ClassicFrameLayout.MAX_BODY;

    private AutoSwitchMasterLayout() {
    }

    /**
     * The handshake answer, header and body in one buffer; the caller owns it.
     *
     * @param lastEpoch the last entry's epoch, -1 when {@code entries} is empty (as RocketMQ sends)
     */
    static ByteBuf handshake(ByteBufAllocator allocator, long maxOffset, int lastEpoch, List<EpochEntry> entries) {
        int body = entries.size() * EPOCH_ENTRY_LENGTH;
        ByteBuf out = allocator.buffer(HANDSHAKE_HEADER_LENGTH + body, HANDSHAKE_HEADER_LENGTH + body)
                .writeInt(AutoSwitchState.HANDSHAKE.wireCode())
                .writeInt(body)
                .writeLong(maxOffset)
                .writeInt(lastEpoch);
        for (EpochEntry entry : entries) {
            out.writeInt(entry.epoch()).writeLong(entry.startOffset());
        }
        return out;
    }

    /** A transfer header announcing {@code bodySize} bytes at {@code offset}; the caller owns it. */
    static ByteBuf transferHeader(ByteBufAllocator allocator, long offset, int bodySize, EpochEntry epoch,
                                  long confirmOffset) {
        return allocator.buffer(TRANSFER_HEADER_LENGTH, TRANSFER_HEADER_LENGTH)
                .writeInt(AutoSwitchState.TRANSFER.wireCode())
                .writeInt(bodySize)
                .writeLong(offset)
                .writeInt(epoch.epoch())
                .writeLong(epoch.startOffset())
                .writeLong(confirmOffset);
    }
}
