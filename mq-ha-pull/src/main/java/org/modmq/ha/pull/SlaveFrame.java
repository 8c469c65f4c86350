package org.modmq.ha.pull;

/** A decoded AutoSwitch frame from a replica ({@link AutoSwitchSlaveLayout}). Immutable. */
sealed interface SlaveFrame {

    /**
     * The replica's handshake.
     *
     * @param brokerId the replica's broker id, &gt;= 0
     */
    record Handshake(boolean syncFromLastFile, boolean asyncLearner, long brokerId) implements SlaveFrame {
    }

    /**
     * The replica holds every byte below {@code maxOffset} (&gt;= 0).
     */
    record Report(long maxOffset) implements SlaveFrame {
    }
}
