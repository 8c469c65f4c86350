package org.modmq.remoting.netty;

/** A connection could not be opened (client) or a port could not be bound (server). */
public final class RemotingConnectException extends RemotingException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message names the address
     * @param cause the underlying failure, or null
     */
    public RemotingConnectException(String message, Throwable cause) {
        super(message, cause);
    }
}
