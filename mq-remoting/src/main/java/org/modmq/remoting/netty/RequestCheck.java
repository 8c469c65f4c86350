package org.modmq.remoting.netty;

import org.modmq.remoting.protocol.RemotingCommand;

/**
 * A check every request passes before its processor runs, such as authentication and access
 * control. It runs on the processor's executor (never on an I/O thread), after the request code was
 * found to be served, so it may parse the body.
 *
 * <p>Refusing: throw a {@link org.modmq.remoting.protocol.ResponseCodeException}; the request is
 * answered with its code and remark (a one-way request gets no answer) and the processor is not
 * run. Any other exception is answered {@code SYSTEM_ERROR}, as a failing processor is.
 *
 * <p>Threading: called concurrently from every processor executor; implementations are thread-safe.
 */
@FunctionalInterface
public interface RequestCheck {

    /** Lets every request through. */
    RequestCheck NONE = (channel, request) -> { };

    /**
     * @param channel the connection the request came on
     * @param request the decoded request; must not be changed
     */
    void check(RemotingChannel channel, RemotingCommand request);
}
