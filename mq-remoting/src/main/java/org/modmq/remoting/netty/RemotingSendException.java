package org.modmq.remoting.netty;

/** A command could not be written, or its connection closed before the response arrived. */
public final class RemotingSendException extends RemotingException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message names the address and the request
     * @param cause the underlying failure, or null
     */
    public RemotingSendException(String message, Throwable cause) {
        super(message, cause);
    }
}
