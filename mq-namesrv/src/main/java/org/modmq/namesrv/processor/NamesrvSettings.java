package org.modmq.namesrv.processor;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The name-server settings that requests read, and the few that {@code UPDATE_NAMESRV_CONFIG} may
 * change at run time ({@link #UPDATABLE_KEYS}). Thread-safe: updatable values are volatile and
 * {@link #update} is synchronized.
 */
public final class NamesrvSettings {

    /** Keys that may change at run time. */
    public static final Set<String> UPDATABLE_KEYS = Set.of("orderMessageEnable", "enableAllTopicList",
            "enableTopicList");

    private final Map<String, String> fixed;
    private volatile boolean orderMessageEnable;
    private volatile boolean enableAllTopicList;
    private volatile boolean enableTopicList;

    /**
     * @param all every setting as text, keyed by its {@code namesrv.conf} name (the updatable ones are
     *            read from here too)
     */
    public NamesrvSettings(Map<String, String> all) {
        Objects.requireNonNull(all, "all");
        this.fixed = new TreeMap<>(all);
        UPDATABLE_KEYS.forEach(fixed::remove);
        this.orderMessageEnable = Boolean.parseBoolean(all.getOrDefault("orderMessageEnable", "false"));
        this.enableAllTopicList = Boolean.parseBoolean(all.getOrDefault("enableAllTopicList", "true"));
        this.enableTopicList = Boolean.parseBoolean(all.getOrDefault("enableTopicList", "true"));
    }

    public boolean orderMessageEnable() {
        return orderMessageEnable;
    }

    public boolean enableAllTopicList() {
        return enableAllTopicList;
    }

    public boolean enableTopicList() {
        return enableTopicList;
    }

    /** Whether {@code key} is a setting at all (updatable or not). */
    public boolean isKnown(String key) {
        return fixed.containsKey(key) || UPDATABLE_KEYS.contains(key);
    }

    /**
     * Applies already validated updates of {@link #UPDATABLE_KEYS}.
     *
     * @param values key to {@code true}/{@code false}
     */
    public synchronized void update(Map<String, Boolean> values) {
        values.forEach((key, value) -> {
            switch (key) {
                case "orderMessageEnable" -> orderMessageEnable = value;
                case "enableAllTopicList" -> enableAllTopicList = value;
                case "enableTopicList" -> enableTopicList = value;
                default -> throw new IllegalArgumentException("not an updatable namesrv key: " + key);
            }
        });
    }

    /** Every setting as text, sorted by key. */
    public synchronized Map<String, String> asProperties() {
        Map<String, String> all = new TreeMap<>(fixed);
        all.put("orderMessageEnable", Boolean.toString(orderMessageEnable));
        all.put("enableAllTopicList", Boolean.toString(enableAllTopicList));
        all.put("enableTopicList", Boolean.toString(enableTopicList));
        return all;
    }
}
