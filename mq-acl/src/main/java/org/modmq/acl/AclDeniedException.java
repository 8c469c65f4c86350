package org.modmq.acl;

/**
 * A request the ACL refuses. The message is RocketMQ's wording for the same case (for example
 * {@code Check signature failed for accessKey=app1}), which operators and client logs search for.
 */
public final class AclDeniedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message the reason, in RocketMQ's words */
    public AclDeniedException(String message) {
        super(message, null, false, false);
    }
}
