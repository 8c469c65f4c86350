package org.modmq.controller;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigValues;

/**
 * ACL 1.0 on the controller's remoting port: the name server's keys {@code aclEnable} and {@code aclFile};
 * and the broker's {@code innerAccessKey}/{@code innerSecretKey}, with which the controller signs what it
 * sends itself (NOTIFY_BROKER_ROLE_CHANGED), so that a broker with ACL on checks it like an admin request.
 * They are not in {@link ControllerConfig#KEYS}: in a file that runs the controller beside a name server
 * ({@code enableControllerInNamesrv=true}) they stay the name server's, and the controller follows the
 * process's setting ({@link ControllerConfig#withAcl}); in {@code controller.conf} they are the controller's
 * own. Immutable.
 *
 * @param enabled {@code aclEnable}: every request must be signed by an account of the file
 * @param file {@code aclFile}, default {@code conf/plain_acl.yml}, relative to the working directory (the
 *     distribution's, as the launch scripts set it), as for the broker and the name server
 * @param innerAccessKey {@code innerAccessKey}: the account the controller signs its notices as; set exactly
 *     when {@code innerSecretKey} is
 * @param innerSecretKey {@code innerSecretKey}; never shown
 */
public record ControllerAcl(boolean enabled, Path file, Optional<String> innerAccessKey,
                            Optional<String> innerSecretKey) {

    /** The keys. */
    public static final Set<String> KEYS = Set.of("aclEnable", "aclFile", "innerAccessKey", "innerSecretKey");

    /** Where {@code aclFile} points by default. */
    public static final String DEFAULT_FILE = "conf/plain_acl.yml";

    public ControllerAcl {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(innerAccessKey, "innerAccessKey");
        Objects.requireNonNull(innerSecretKey, "innerSecretKey");
        if (innerAccessKey.isPresent() != innerSecretKey.isPresent()) {
            throw new ConfigException("innerAccessKey and innerSecretKey go together: set both, or neither");
        }
    }

    /** ACL settings without signing credentials (the controller's notices go unsigned). */
    public ControllerAcl(boolean enabled, Path file) {
        this(enabled, file, Optional.empty(), Optional.empty());
    }

    /** ACL off. */
    public static ControllerAcl off() {
        return new ControllerAcl(false, Path.of(DEFAULT_FILE));
    }

    /** @throws ConfigException naming {@code aclEnable} when it is not true or false, or a lone inner key */
    static ControllerAcl parse(ConfigValues config) {
        String file = config.string("aclFile", "").trim();
        return new ControllerAcl(config.bool("aclEnable", false), Path.of(file.isEmpty() ? DEFAULT_FILE : file),
                nonBlank(config, "innerAccessKey"), nonBlank(config, "innerSecretKey"));
    }

    private static Optional<String> nonBlank(ConfigValues config, String key) {
        return Optional.of(config.string(key, "").trim()).filter(v -> !v.isEmpty());
    }

    /** Without the secret key. */
    @Override
    public String toString() {
        return "ControllerAcl[enabled=" + enabled + ", file=" + file + ", innerAccessKey=" + innerAccessKey.orElse("")
                + "]";
    }

    /** The keys as {@code GET_CONTROLLER_CONFIG} lists them; the secret key never. */
    Map<String, String> asProperties() {
        return Map.of("aclEnable", Boolean.toString(enabled), "aclFile", file.toString(),
                "innerAccessKey", innerAccessKey.orElse(""));
    }
}
