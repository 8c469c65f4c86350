package org.modmq.api.config;

/** A configuration value that is missing, unknown or malformed; the message names the key. */
public final class ConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }
}
