package org.modmq.broker.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * ACL 1.0 settings of a broker: RocketMQ's {@code aclEnable}, and modmq's {@code aclFile} (RocketMQ
 * reads {@code conf/plain_acl.yml} under its home) and {@code innerAccessKey}/{@code innerSecretKey},
 * the account the broker signs its own requests with (registration at the name servers, a slave's
 * metadata sync, controller calls). Immutable; the secret is left out of {@link #toString()} and of
 * the effective configuration that {@code GET_BROKER_CONFIG} shows.
 *
 * @param enabled {@code aclEnable}: check every client request against the file
 * @param file {@code aclFile}, default {@code conf/plain_acl.yml} (relative to the working directory,
 *     which the launch scripts set to the distribution directory)
 * @param innerAccessKey {@code innerAccessKey}, or empty: outgoing requests are not signed
 * @param innerSecretKey {@code innerSecretKey}, set exactly when {@code innerAccessKey} is
 */
public record AccessControlConfig(boolean enabled, Path file, Optional<String> innerAccessKey,
                                  Optional<String> innerSecretKey) {

    /** modmq's default location of the ACL file, as RocketMQ's. */
    public static final String DEFAULT_FILE = "conf/plain_acl.yml";

    public AccessControlConfig {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(innerAccessKey, "innerAccessKey");
        Objects.requireNonNull(innerSecretKey, "innerSecretKey");
        if (innerAccessKey.isPresent() != innerSecretKey.isPresent()) {
            throw new IllegalArgumentException("innerAccessKey and innerSecretKey go together");
        }
    }

    /** ACL off, no inner credentials. */
    public static AccessControlConfig off() {
        return new AccessControlConfig(false, Path.of(DEFAULT_FILE), Optional.empty(), Optional.empty());
    }

    static AccessControlConfig read(ConfigReader reader) {
        boolean enabled = reader.bool("aclEnable", false);
        Path file = Path.of(reader.string("aclFile", DEFAULT_FILE));
        Optional<String> accessKey = reader.raw("innerAccessKey").map(String::trim).filter(s -> !s.isEmpty());
        reader.remember("innerAccessKey", accessKey.orElse(""));
        // Read but never remembered: GET_BROKER_CONFIG must not hand the secret out.
        Optional<String> secretKey = reader.raw("innerSecretKey").map(String::trim).filter(s -> !s.isEmpty());
        if (accessKey.isPresent() != secretKey.isPresent()) {
            throw reader.bad(accessKey.isPresent() ? "innerSecretKey" : "innerAccessKey", "",
                    "both innerAccessKey and innerSecretKey, or neither");
        }
        return new AccessControlConfig(enabled, file, accessKey, secretKey);
    }

    /** Leaves the secret out. */
    @Override
    public String toString() {
        return "AccessControlConfig[enabled=" + enabled + ", file=" + file + ", innerAccessKey="
                + innerAccessKey.orElse("") + "]";
    }
}
