package org.modmq.broker.config;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Controller mode ({@code enableControllerMode=true}): the broker's id and role come from the controllers
 * in {@code controllerAddr}. RocketMQ's key names; modmq's defaults are tighter than RocketMQ's (its
 * heartbeat is 1 s with a 10 s timeout) so that a hung master is replaced within about two seconds, and a
 * master holds a lease: it answers no send once {@code controllerHeartBeatTimeoutMills − controllerLeaseMarginMills}
 * have passed since the last heartbeat the controller leader answered. Immutable.
 *
 * @param enabled {@code enableControllerMode}
 * @param controllerAddresses {@code controllerAddr}: the controllers' remoting addresses, {@code ;}-separated
 * @param heartbeatIntervalMillis {@code brokerHeartbeatInterval} (modmq default 300 ms)
 * @param heartbeatTimeoutMillis {@code controllerHeartBeatTimeoutMills}: the controller declares the broker
 *     inactive after this long without a heartbeat (modmq default 2000 ms)
 * @param sendHeartbeatTimeoutMillis {@code sendHeartbeatTimeoutMillis}: how long one heartbeat may take
 * @param syncBrokerMetadataPeriodMillis {@code syncBrokerMetadataPeriod}: GET_REPLICA_INFO poll (5 s)
 * @param checkSyncStateSetPeriodMillis {@code checkSyncStateSetPeriod}: the master's SyncStateSet check (5 s)
 * @param syncControllerMetadataPeriodMillis {@code syncControllerMetadataPeriod}: leader lookup (10 s)
 * @param electionPriority {@code brokerElectionPriority}: lower wins among equals (default Integer.MAX_VALUE)
 * @param identityFile {@code storePathBrokerIdentity} (default {@code <storePathRootDir>/brokerIdentity})
 * @param leaseMarginMillis modmq's {@code controllerLeaseMarginMills}: how much earlier than the
 *     controller's timeout the master's lease ends (default 500 ms)
 */
public record ControllerModeConfig(boolean enabled, List<String> controllerAddresses, long heartbeatIntervalMillis,
                                   long heartbeatTimeoutMillis, long sendHeartbeatTimeoutMillis,
                                   long syncBrokerMetadataPeriodMillis, long checkSyncStateSetPeriodMillis,
                                   long syncControllerMetadataPeriodMillis, int electionPriority, Path identityFile,
                                   long leaseMarginMillis) {

    public ControllerModeConfig {
        controllerAddresses = List.copyOf(controllerAddresses);
        Objects.requireNonNull(identityFile, "identityFile");
    }

    /** How long after a heartbeat was sent its leader's answer keeps the lease. */
    public long leaseMillis() {
        return heartbeatTimeoutMillis - leaseMarginMillis;
    }

    static ControllerModeConfig read(ConfigReader reader, Path storeRoot) {
        boolean enabled = reader.bool("enableControllerMode", false);
        String addresses = reader.string("controllerAddr", "");
        List<String> controllers = Arrays.stream(addresses.split(";")).map(String::trim).filter(a -> !a.isEmpty())
                .toList();
        for (String controller : controllers) {
            int colon = controller.lastIndexOf(':');
            if (colon <= 0 || !controller.substring(colon + 1).matches("\\d{1,5}")) {
                throw reader.bad("controllerAddr", addresses, "host:port entries separated by ';'");
            }
        }
        if (enabled && controllers.isEmpty()) {
            throw reader.bad("controllerAddr", addresses, "at least one controller host:port when enableControllerMode=true");
        }
        long interval = reader.longIn("brokerHeartbeatInterval", 300, 50, 60_000);
        long timeout = reader.longIn("controllerHeartBeatTimeoutMills", 2_000, 200, 600_000);
        long sendTimeout = reader.longIn("sendHeartbeatTimeoutMillis", 1_000, 50, 60_000);
        long margin = reader.longIn("controllerLeaseMarginMills", 500, 0, 600_000);
        if (margin >= timeout || interval >= timeout - margin) {
            throw reader.bad("brokerHeartbeatInterval", Long.toString(interval), "below controllerHeartBeatTimeoutMills ("
                    + timeout + ") minus controllerLeaseMarginMills (" + margin + "), so a live master renews its lease");
        }
        long syncBroker = reader.longIn("syncBrokerMetadataPeriod", 5_000, 100, 600_000);
        long checkSet = reader.longIn("checkSyncStateSetPeriod", 5_000, 100, 600_000);
        long syncController = reader.longIn("syncControllerMetadataPeriod", 10_000, 100, 600_000);
        int priority = reader.intIn("brokerElectionPriority", Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE);
        Path identity = Path.of(reader.string("storePathBrokerIdentity", storeRoot.resolve("brokerIdentity").toString()));
        // Read by the message store (replication policy) and the replication plugins themselves.
        reader.bool("allAckInSyncStateSet", false);
        reader.intIn("minInSyncReplicas", 1, 1, 64);
        reader.intIn("inSyncReplicas", 1, 1, 64);
        reader.longIn("haMaxTimeSlaveNotCatchup", 15_000, 100, 3_600_000);
        reader.bool("syncFromLastFile", false);
        reader.bool("asyncLearner", false);
        return new ControllerModeConfig(enabled, controllers, interval, timeout, sendTimeout, syncBroker, checkSet,
                syncController, priority, identity, margin);
    }
}
