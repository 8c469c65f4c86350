package org.modmq.remoting.netty;

/** A remoting call could not be completed: not connected, not sent, or not answered in time. */
public class RemotingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, naming the address
     * @param cause the underlying failure, or null
     */
    public RemotingException(String message, Throwable cause) {
        super(message, cause);
    }
}
