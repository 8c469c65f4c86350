package org.modmq.launcher;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import org.modmq.api.config.ConfigException;
import org.modmq.controller.ControllerConfig;
import org.modmq.remoting.netty.RemotingServerKeys;

/**
 * Reads {@code key=value} files and splits out the controller's part. Stateless.
 */
final class ConfFiles {

    /** RocketMQ's name-server key that puts a controller beside the name server. */
    static final String ENABLE_CONTROLLER = "enableControllerInNamesrv";

    private ConfFiles() {
    }

    /** @throws ConfigException naming the file when it cannot be read */
    static Map<String, String> read(Path file) {
        Objects.requireNonNull(file, "file");
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("cannot read " + file + ": " + e.getMessage());
        }
        Map<String, String> values = new TreeMap<>();
        properties.stringPropertyNames().forEach(key -> values.put(key.trim(), properties.getProperty(key)));
        return values;
    }

    /**
     * Splits {@code values} into the server's own keys and the controller's keys
     * ({@link ControllerConfig#KEYS}), taking out {@value #ENABLE_CONTROLLER}; the remoting bounds
     * ({@link RemotingServerKeys#KEYS}) are the server's and, with a controller enabled, its too.
     */
    static Split split(Map<String, String> values) {
        Map<String, String> own = new TreeMap<>();
        Map<String, String> controller = new TreeMap<>();
        Map<String, String> shared = new TreeMap<>();
        String enable = null;
        for (Map.Entry<String, String> entry : values.entrySet()) {
            if (entry.getKey().equals(ENABLE_CONTROLLER)) {
                enable = entry.getValue().trim();
            } else if (RemotingServerKeys.KEYS.contains(entry.getKey())) {
                own.put(entry.getKey(), entry.getValue());
                shared.put(entry.getKey(), entry.getValue());
            } else if (ControllerConfig.KEYS.contains(entry.getKey())) {
                controller.put(entry.getKey(), entry.getValue());
            } else {
                own.put(entry.getKey(), entry.getValue());
            }
        }
        boolean enabled = false;
        if (enable != null) {
            if (enable.equalsIgnoreCase("true")) {
                enabled = true;
            } else if (!enable.equalsIgnoreCase("false")) {
                throw new ConfigException(ENABLE_CONTROLLER + "=" + enable + " is not one of [true, false]");
            }
        }
        if (enabled) {
            // The remoting bounds hold for both ports of the process.
            controller.putAll(shared);
        }
        return new Split(own, controller, enabled);
    }

    /**
     * @param own               the server's keys
     * @param controller        the controller's keys
     * @param controllerEnabled whether {@value #ENABLE_CONTROLLER} is true
     */
    record Split(Map<String, String> own, Map<String, String> controller, boolean controllerEnabled) {
    }
}
