package org.modmq.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The links from each broker of a {@link ControllerCluster} to the controllers, one {@link PartitionProxy}
 * per broker and controller, so that a test can cut one broker off from every controller while it still
 * reaches (and is reached by) the name server, the other brokers and the clients. Thread-safe.
 */
final class ControllerLinks implements AutoCloseable {

    private final Map<Integer, List<PartitionProxy>> byIndex = new ConcurrentHashMap<>();
    private final Map<String, Integer> indexByBroker = new ConcurrentHashMap<>();

    /** The {@code controllerAddr} value of broker {@code index}: a proxy in front of each controller. */
    String addressesFor(int index, List<String> controllers) {
        List<PartitionProxy> proxies = new ArrayList<>();
        try {
            for (String controller : controllers) {
                proxies.add(new PartitionProxy(controller));
            }
        } catch (IOException e) {
            proxies.forEach(PartitionProxy::close);
            throw new UncheckedIOException(e);
        }
        byIndex.put(index, proxies);
        return String.join(";", proxies.stream().map(PartitionProxy::address).toList());
    }

    /** Broker {@code index} listens on {@code address}. */
    void name(int index, String address) {
        indexByBroker.put(address, index);
    }

    /** Cuts the broker at {@code address} off from every controller. */
    void cut(String address) {
        proxies(address).forEach(PartitionProxy::cut);
    }

    /** Ends the cut of the broker at {@code address}. */
    void heal(String address) {
        proxies(address).forEach(PartitionProxy::heal);
    }

    private List<PartitionProxy> proxies(String address) {
        Integer index = indexByBroker.get(address);
        if (index == null) {
            throw new IllegalArgumentException("no broker at " + address + " in " + indexByBroker.keySet());
        }
        return byIndex.get(index);
    }

    @Override
    public void close() {
        byIndex.values().forEach(proxies -> proxies.forEach(PartitionProxy::close));
    }
}
