package org.modmq.acl;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * Decides a request against the rules in force, in RocketMQ's order:
 *
 * <ol>
 *   <li>the client address is in {@code globalWhiteRemoteAddresses}: allowed;</li>
 *   <li>no {@code AccessKey}: "No accessKey is configured"; an unknown one: "No acl config for K";</li>
 *   <li>the address matches the account's {@code whiteRemoteAddress}: allowed;</li>
 *   <li>the signature does not match: "Check signature failed for accessKey=K";</li>
 *   <li>the request only publishes to {@code RMQ_SYS_TRACE_TOPIC}: allowed;</li>
 *   <li>an admin-only request (by default {@link AdminCodes}; a controller passes
 *       {@link ControllerAdminRequests}) from a non-admin: "Need admin permission for request code=C, but
 *       accessKey=K is not";</li>
 *   <li>an admin without any explicit topic or group entry: allowed;</li>
 *   <li>each resource the request needs, from its entry or else the account's default:
 *       "No default permission for topic:T" or "... for group:G".</li>
 * </ol>
 *
 * Thread-safe: the rules are replaced as a whole ({@link #replace}); a request sees either the old
 * or the new ones.
 */
public final class PlainAclValidator {

    /** RocketMQ's message-trace topic; publishing to it is always allowed. */
    public static final String TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC";

    private final AtomicReference<AclRules> rules;
    private final Predicate<AccessRequest> adminOnly;

    /** @param rules the rules in force at first; admin-only requests are the {@link AdminCodes} */
    public PlainAclValidator(AclRules rules) {
        this(rules, request -> AdminCodes.needsAdmin(request.code()));
    }

    /**
     * @param rules the rules in force at first
     * @param adminOnly which requests need an account with {@code admin: true} on this kind of server
     */
    public PlainAclValidator(AclRules rules, Predicate<AccessRequest> adminOnly) {
        this.rules = new AtomicReference<>(Objects.requireNonNull(rules, "rules"));
        this.adminOnly = Objects.requireNonNull(adminOnly, "adminOnly");
    }

    /** @return the rules in force */
    public AclRules rules() {
        return rules.get();
    }

    /** Puts {@code next} in force for every request checked from now on. */
    public void replace(AclRules next) {
        rules.set(Objects.requireNonNull(next, "next"));
    }

    /**
     * @param request the request
     * @throws AclDeniedException when it is refused
     */
    public void validate(AccessRequest request) {
        AclRules current = rules.get();
        if (current.globallyWhite(request.remoteAddress())) {
            return;
        }
        String accessKey = request.extFields().get(RequestSignature.ACCESS_KEY);
        if (accessKey == null) {
            throw new AclDeniedException("No accessKey is configured");
        }
        AclAccount account = current.account(accessKey)
                .orElseThrow(() -> new AclDeniedException("No acl config for " + accessKey));
        if (account.whiteRemoteAddress().matches(request.remoteAddress())) {
            return;
        }
        byte[] content = RequestSignature.content(request.extFields(), request.body(),
                request.version() <= RequestSignature.V4_9_3);
        String expected = RequestSignature.sign(content, account.secretKey());
        if (!RequestSignature.matches(expected, request.extFields().get(RequestSignature.SIGNATURE))) {
            throw new AclDeniedException("Check signature failed for accessKey=" + accessKey);
        }
        Map<String, Byte> needed = RequiredAccess.of(request);
        Byte trace = needed.get(TRACE_TOPIC);
        if (trace != null && trace == AclPermission.PUB) {
            return;
        }
        if (!account.admin() && adminOnly.test(request)) {
            throw new AclDeniedException("Need admin permission for request code=" + request.code()
                    + ", but accessKey=" + accessKey + " is not");
        }
        if (account.admin() && account.resourcePerms().isEmpty()) {
            return;
        }
        for (Map.Entry<String, Byte> entry : needed.entrySet()) {
            String resource = entry.getKey();
            boolean group = RequiredAccess.isGroup(resource);
            Byte explicit = account.resourcePerms().get(resource);
            byte owned = explicit != null ? explicit : group ? account.defaultGroupPerm() : account.defaultTopicPerm();
            if (!AclPermission.allows(entry.getValue(), owned)) {
                throw new AclDeniedException("No default permission for " + (group
                        ? "group:" + resource.substring(RequiredAccess.RETRY_PREFIX.length())
                        : "topic:" + resource));
            }
        }
    }
}
