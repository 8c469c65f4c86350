package org.modmq.controller.core;

import java.util.Map;
import java.util.TreeMap;

/**
 * The controller settings that may change while it runs ({@code UPDATE_CONTROLLER_CONFIG}); each peer
 * keeps its own, as RocketMQ's controllers do. Thread-safe (volatile fields).
 */
public final class RuntimeSettings {

    /** Keys {@code UPDATE_CONTROLLER_CONFIG} accepts. */
    public static final java.util.Set<String> KEYS = java.util.Set.of("enableElectUncleanMaster",
            "notifyBrokerRoleChanged", "scanNotActiveBrokerInterval", "electMasterMaxRetryCount");

    private volatile boolean enableElectUncleanMaster;
    private volatile boolean notifyBrokerRoleChanged;
    private volatile long scanNotActiveBrokerInterval;
    private volatile int electMasterMaxRetryCount;

    /**
     * @param enableElectUncleanMaster    whether replicas outside the sync-state set may become master
     * @param notifyBrokerRoleChanged     whether elections are pushed to the replicas (1008)
     * @param scanNotActiveBrokerInterval ms between liveness scans of the leader
     * @param electMasterMaxRetryCount    attempts of one controller-triggered election
     */
    public RuntimeSettings(boolean enableElectUncleanMaster, boolean notifyBrokerRoleChanged,
                           long scanNotActiveBrokerInterval, int electMasterMaxRetryCount) {
        this.enableElectUncleanMaster = enableElectUncleanMaster;
        this.notifyBrokerRoleChanged = notifyBrokerRoleChanged;
        this.scanNotActiveBrokerInterval = requirePositive("scanNotActiveBrokerInterval", scanNotActiveBrokerInterval);
        this.electMasterMaxRetryCount = (int) requirePositive("electMasterMaxRetryCount", electMasterMaxRetryCount);
    }

    public boolean enableElectUncleanMaster() {
        return enableElectUncleanMaster;
    }

    public boolean notifyBrokerRoleChanged() {
        return notifyBrokerRoleChanged;
    }

    public long scanNotActiveBrokerInterval() {
        return scanNotActiveBrokerInterval;
    }

    public int electMasterMaxRetryCount() {
        return electMasterMaxRetryCount;
    }

    /**
     * Changes the given keys, all or none.
     *
     * @param values key to value; every key must be one of {@link #KEYS}
     * @throws IllegalArgumentException naming the first unknown key or malformed value; nothing changes then
     */
    public synchronized void update(Map<String, String> values) {
        boolean unclean = enableElectUncleanMaster;
        boolean notify = notifyBrokerRoleChanged;
        long scan = scanNotActiveBrokerInterval;
        int retries = electMasterMaxRetryCount;
        for (Map.Entry<String, String> entry : new TreeMap<>(values).entrySet()) {
            String value = entry.getValue() == null ? "" : entry.getValue().trim();
            switch (entry.getKey()) {
                case "enableElectUncleanMaster" -> unclean = bool(entry.getKey(), value);
                case "notifyBrokerRoleChanged" -> notify = bool(entry.getKey(), value);
                case "scanNotActiveBrokerInterval" -> scan = requirePositive(entry.getKey(), number(entry.getKey(), value));
                case "electMasterMaxRetryCount" -> retries = (int) requirePositive(entry.getKey(),
                        Math.min(Integer.MAX_VALUE, number(entry.getKey(), value)));
                default -> throw new IllegalArgumentException("'" + entry.getKey()
                        + "' cannot be changed at run time; keys that can: " + new java.util.TreeSet<>(KEYS));
            }
        }
        enableElectUncleanMaster = unclean;
        notifyBrokerRoleChanged = notify;
        scanNotActiveBrokerInterval = scan;
        electMasterMaxRetryCount = retries;
    }

    /** @return the current values by key */
    public Map<String, String> asProperties() {
        Map<String, String> map = new TreeMap<>();
        map.put("enableElectUncleanMaster", Boolean.toString(enableElectUncleanMaster));
        map.put("notifyBrokerRoleChanged", Boolean.toString(notifyBrokerRoleChanged));
        map.put("scanNotActiveBrokerInterval", Long.toString(scanNotActiveBrokerInterval));
        map.put("electMasterMaxRetryCount", Integer.toString(electMasterMaxRetryCount));
        return map;
    }

    private static boolean bool(String key, String value) {
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException(key + "=" + value + " is not one of [true, false]");
    }

    private static long number(String key, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + "=" + value + " is not an integer", e);
        }
    }

    private static long requirePositive(String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + "=" + value + " must be > 0");
        }
        return value;
    }
}
