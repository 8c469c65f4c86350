package org.modmq.ha.pull;

import io.netty.buffer.ByteBuf;
import java.util.List;
import org.modmq.api.spi.replication.EpochEntry;

/** A decoded AutoSwitch frame from a master ({@link AutoSwitchMasterLayout}). */
sealed interface MasterFrame {

    /**
     * The master's handshake answer. Immutable.
     *
     * @param maxOffset the master's max phy offset
     * @param lastEpoch its last epoch, -1 when it has none
     * @param entries its epoch history, oldest first
     */
    record Handshake(long maxOffset, int lastEpoch, List<EpochEntry> entries) implements MasterFrame {

        public Handshake {
            entries = List.copyOf(entries);
        }
    }

    /**
     * A transfer frame, as read: the session checks the values against its log.
     *
     * @param offset phy offset of the body's first byte (of the next byte to be sent for a heartbeat; a
     *     RocketMQ master with an empty log sends -1)
     * @param epoch the epoch the header names
     * @param epochStartOffset where that epoch starts
     * @param confirmOffset the master's confirm offset
     * @param body the bytes, possibly empty; whoever receives the frame releases it once
     */
    record Transfer(long offset, int epoch, long epochStartOffset, long confirmOffset, ByteBuf body)
            implements MasterFrame {

        /** Body bytes. */
        public int size() {
            return body.readableBytes();
        }
    }
}
