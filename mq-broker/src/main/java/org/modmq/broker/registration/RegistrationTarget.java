package org.modmq.broker.registration;

import java.util.Objects;

/**
 * How this broker names itself to the name servers. Immutable.
 *
 * @param clusterName {@code brokerClusterName}
 * @param brokerName {@code brokerName}
 * @param brokerId 0 for the master
 * @param brokerAddr {@code brokerIP1:port} of the bound main port
 * @param haServerAddr {@code brokerIP2:haListenPort}
 * @param permission {@code brokerPermission}
 */
public record RegistrationTarget(String clusterName, String brokerName, long brokerId, String brokerAddr,
                                 String haServerAddr, int permission) {

    public RegistrationTarget {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(brokerName, "brokerName");
        Objects.requireNonNull(brokerAddr, "brokerAddr");
        Objects.requireNonNull(haServerAddr, "haServerAddr");
    }

    /** A copy with another {@code brokerPermission}. */
    public RegistrationTarget withPermission(int newPermission) {
        return new RegistrationTarget(clusterName, brokerName, brokerId, brokerAddr, haServerAddr, newPermission);
    }
}
