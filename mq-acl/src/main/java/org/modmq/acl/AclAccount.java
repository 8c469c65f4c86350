package org.modmq.acl;

import java.util.Map;
import java.util.Objects;

/**
 * One entry of {@code accounts} in {@code plain_acl.yml}. Immutable and thread-safe.
 *
 * @param accessKey the name a client signs as ({@code AccessKey} header field)
 * @param secretKey the HmacSHA1 key of its signatures
 * @param whiteRemoteAddress clients at these addresses using this key are let through unchecked
 *     (no signature, no permissions), as RocketMQ does
 * @param admin whether admin-only requests are allowed (see {@link AdminCodes})
 * @param defaultTopicPerm bits for topics without an entry in {@code topicPerms}
 * @param defaultGroupPerm bits for groups without an entry in {@code groupPerms}
 * @param resourcePerms explicit bits by resource: topics by name, groups as {@code %RETRY%<group>}
 */
public record AclAccount(String accessKey, String secretKey, AddressPattern whiteRemoteAddress, boolean admin,
                         byte defaultTopicPerm, byte defaultGroupPerm, Map<String, Byte> resourcePerms) {

    public AclAccount {
        Objects.requireNonNull(accessKey, "accessKey");
        Objects.requireNonNull(secretKey, "secretKey");
        Objects.requireNonNull(whiteRemoteAddress, "whiteRemoteAddress");
        resourcePerms = Map.copyOf(resourcePerms);
    }

    /** Leaves the secret out. */
    @Override
    public String toString() {
        return "AclAccount[accessKey=" + accessKey + ", whiteRemoteAddress=" + whiteRemoteAddress + ", admin=" + admin
                + ", defaultTopicPerm=" + AclPermission.name(defaultTopicPerm) + ", defaultGroupPerm="
                + AclPermission.name(defaultGroupPerm) + ", resources=" + resourcePerms.size() + "]";
    }
}
