package org.modmq.acl;

import java.util.Map;
import java.util.Objects;

/**
 * What the ACL looks at in one request. Immutable; the maps and arrays are the request's own and
 * must not be changed while it is checked.
 *
 * @param code the request code
 * @param version the client's RocketMQ version ordinal (older clients sign a little differently)
 * @param extFields the header fields as received
 * @param body the body (empty if none)
 * @param remoteAddress the client's IP address as text
 */
public record AccessRequest(int code, int version, Map<String, String> extFields, byte[] body,
                            String remoteAddress) {

    public AccessRequest {
        Objects.requireNonNull(extFields, "extFields");
        Objects.requireNonNull(body, "body");
    }
}
