package org.modmq.remoting.netty;

/** No response arrived within the timeout; the pending entry has been removed. */
public final class RemotingTimeoutException extends RemotingException {

    private static final long serialVersionUID = 1L;

    /** @param message names the address, the request code, the opaque and the timeout */
    public RemotingTimeoutException(String message) {
        super(message, null);
    }
}
