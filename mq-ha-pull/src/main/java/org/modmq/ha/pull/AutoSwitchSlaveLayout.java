package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * AutoSwitch HA frames a replica sends to its master (RocketMQ {@code AutoSwitchHAClient}); all integers
 * big-endian. Every frame starts with the replica's {@link AutoSwitchState} code, which says how long it
 * is.
 *
 * <pre>
 * handshake, sent once right after connecting (RocketMQ HANDSHAKE_HEADER_SIZE = 16)
 * +------------------------+---------------------------+-------------------------+------------------------+
 * | int32 currentState     | int16 isSyncFromLastFile  | int16 isAsyncLearner    | int64 slaveBrokerId    |
 * | 1 (HANDSHAKE)          | 1 = start an empty replica| 1 = never joins the     | the replica's broker id|
 * |                        | at the master's last file | SyncStateSet            |                        |
 * +------------------------+---------------------------+-------------------------+------------------------+
 *   offset 0                 4                           6                         8                    16
 *
 * report, the replica's acknowledgement (RocketMQ TRANSFER_HEADER_SIZE = 12)
 * +------------------------+--------------------------------------------+
 * | int32 currentState     | int64 maxOffset                            |
 * | 2 (TRANSFER)           | the replica's max phy offset: it holds     |
 * |                        | every byte below it                        |
 * +------------------------+--------------------------------------------+
 *   offset 0                 4                                          12
 * </pre>
 *
 * <p>RocketMQ reads the two flags as "equal to 1"; modmq sends 0 or 1 and refuses any other value.
 */
final class AutoSwitchSlaveLayout {

    /** Bytes of a handshake. */
    static final int HANDSHAKE_LENGTH = 16;
    /** Bytes of a report. */
    static final int REPORT_LENGTH = 12;
    /** Where the state code sits in both frames. */
    static final int STATE_OFFSET = 0;
    /** Handshake: where isSyncFromLastFile sits. */
    static final int SYNC_FROM_LAST_FILE_OFFSET = 4;
    /** Handshake: where isAsyncLearner sits. */
    static final int ASYNC_LEARNER_OFFSET = 6;
    /** Handshake: where slaveBrokerId sits. */
    static final int BROKER_ID_OFFSET = 8;
    /** Report: where maxOffset sits. */
    static final int MAX_OFFSET_OFFSET = 4;

    private AutoSwitchSlaveLayout() {
    }

    /** A handshake; the caller owns the buffer. */
    static ByteBuf handshake(ByteBufAllocator allocator, boolean syncFromLastFile, boolean asyncLearner,
                             long brokerId) {
        return allocator.buffer(HANDSHAKE_LENGTH, HANDSHAKE_LENGTH)
                .writeInt(AutoSwitchState.HANDSHAKE.wireCode())
                .writeShort(syncFromLastFile ? 1 : 0)
                .writeShort(asyncLearner ? 1 : 0)
                .writeLong(brokerId);
    }

    /** A report of {@code maxOffset}; the caller owns the buffer. */
    static ByteBuf report(ByteBufAllocator allocator, long maxOffset) {
        return allocator.buffer(REPORT_LENGTH, REPORT_LENGTH)
                .writeInt(AutoSwitchState.TRANSFER.wireCode())
                .writeLong(maxOffset);
    }
}
