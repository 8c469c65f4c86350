package org.modmq.remoting.codec;

import io.netty.handler.codec.CorruptedFrameException;

/** A received frame is broken (bad length, bad header, unknown type); the connection is closed. */
public final class RemotingFrameException extends CorruptedFrameException {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong with the frame */
    public RemotingFrameException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong with the frame
     * @param cause the underlying parse failure
     */
    public RemotingFrameException(String message, Throwable cause) {
        super(message, cause);
    }
}
