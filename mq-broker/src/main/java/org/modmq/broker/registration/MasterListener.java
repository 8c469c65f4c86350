package org.modmq.broker.registration;

/**
 * Told when a slave learns a new master from a name server's REGISTER_BROKER answer (docs/protocol.md
 * section 3.2, step 9). Called on a remoting client thread; must not block.
 */
@FunctionalInterface
public interface MasterListener {

    /** Listens to nothing. */
    MasterListener NONE = (masterAddr, masterHaAddr) -> { };

    /**
     * @param masterAddr the master's main address ({@code host:port}); never null or empty
     * @param masterHaAddr the master's HA address ({@code host:port}); null when the answer had none
     */
    void masterChanged(String masterAddr, String masterHaAddr);
}
