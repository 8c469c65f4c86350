package org.modmq.bench;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the name server said about one broker set at one moment: broker id to address, where id 0 is
 * the master (in controller mode the name server lists the elected master under 0 and the replicas
 * under the ids the controller gave them).
 *
 * @param nanos     {@link System#nanoTime()} when the answer arrived
 * @param addresses broker id to {@code host:port}, sorted by id (copied)
 */
record BrokerSetView(long nanos, Map<Long, String> addresses) {

    BrokerSetView {
        addresses = Map.copyOf(Objects.requireNonNull(addresses, "addresses"));
    }

    /** The address registered as id 0, or {@code null} when the set has no master at the name server. */
    String master() {
        return addresses.get(0L);
    }

    /** Whether the set has a master and {@code address} is neither absent nor that master. */
    boolean hasMasterOtherThan(String address) {
        String master = master();
        return master != null && !master.equals(address);
    }

    /** Whether {@code address} is registered under an id other than 0. */
    boolean listsAsReplica(String address) {
        return addresses.entrySet().stream().anyMatch(e -> e.getKey() != 0L && e.getValue().equals(address));
    }

    /** The id {@code address} is registered under, or -1. */
    long idOf(String address) {
        return addresses.entrySet().stream().filter(e -> e.getValue().equals(address)).mapToLong(Map.Entry::getKey)
                .min().orElse(-1);
    }

    /** Same registrations as {@code other} (times aside). */
    boolean sameAs(BrokerSetView other) {
        return other != null && addresses.equals(other.addresses);
    }

    @Override
    public String toString() {
        return new TreeMap<>(addresses).toString();
    }
}
