package org.modmq.controller.core;

/**
 * Told of the outcome of every master election this peer ran as leader (a broker's, an operator's or
 * its own after a master went inactive). Called on the thread that finished the election; must be quick.
 */
@FunctionalInterface
public interface ElectionObserver {

    /** Observes nothing. */
    ElectionObserver NONE = (clusterName, brokerName, responseCode) -> { };

    /**
     * @param clusterName the broker set's cluster, empty when the set is not registered
     * @param brokerName the broker set
     * @param responseCode the election's answer ({@code SUCCESS}: a new master; {@code
     *     CONTROLLER_MASTER_STILL_EXIST}: the master stays; others: no master)
     */
    void elected(String clusterName, String brokerName, int responseCode);
}
