package org.modmq.api.config;

/** A configuration value that is missing, unknown or malformed; the message names the key. */
public final class ConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    /** @param cause what failed underneath (a file that cannot be read, a certificate that does not parse) */
    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
