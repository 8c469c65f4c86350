package org.modmq.remoting.netty;

import java.util.concurrent.CompletableFuture;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.ResponseCodeException;

/**
 * Handles requests of one or more request codes. Runs on the executor it was registered with,
 * never on an I/O thread.
 *
 * <p>Answering: return a future of the response (build it with
 * {@link RemotingCommand#responseTo}); the remoting layer copies the request's opaque and
 * serialize type onto it and sets the response flag anyway. Return {@code null}, or complete the
 * future with {@code null}, to send nothing. A future may complete later on any thread, which is how
 * long polling holds a request. For one-way requests any response is dropped.
 *
 * <p>Errors: a {@link ResponseCodeException} (thrown or completing the future exceptionally),
 * including {@link org.modmq.remoting.protocol.HeaderFieldException}, is answered with its code and
 * remark; any other exception with {@code SYSTEM_ERROR} and a short description.
 *
 * <p>Buffers: the request body is a {@code byte[]} and needs no release. A response's
 * {@code ByteBuf} body is owned by the remoting layer once the future completes with it.
 */
@FunctionalInterface
public interface RequestProcessor {

    /**
     * @param channel the connection the request came on
     * @param request the decoded request
     * @return the response future, or null for no response
     */
    CompletableFuture<RemotingCommand> process(RemotingChannel channel, RemotingCommand request);

    /**
     * Adapts a synchronous processor.
     *
     * @param processor returns the response, or null for none
     * @return the asynchronous form
     */
    static RequestProcessor sync(Sync processor) {
        return (channel, request) -> {
            RemotingCommand response = processor.process(channel, request);
            return response == null ? null : CompletableFuture.completedFuture(response);
        };
    }

    /** A processor that answers before returning. Same rules as {@link RequestProcessor}. */
    @FunctionalInterface
    interface Sync {
        /**
         * @param channel the connection the request came on
         * @param request the decoded request
         * @return the response, or null for no response
         */
        RemotingCommand process(RemotingChannel channel, RemotingCommand request);
    }
}
