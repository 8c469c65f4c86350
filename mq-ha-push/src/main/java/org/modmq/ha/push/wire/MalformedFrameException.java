package org.modmq.ha.push.wire;

import io.netty.handler.codec.CorruptedFrameException;

/** A frame whose body does not follow {@link PushFrameLayout}; the connection that sent it is closed. */
public final class MalformedFrameException extends CorruptedFrameException {

    private static final long serialVersionUID = 1L;

    public MalformedFrameException(String message) {
        super(message);
    }
}
