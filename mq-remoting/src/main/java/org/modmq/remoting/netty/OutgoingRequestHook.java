package org.modmq.remoting.netty;

import org.modmq.remoting.protocol.RemotingCommand;

/**
 * Runs on every request a {@link RemotingClient} sends, after its caller built it and before it is
 * written, for example to add credentials and a signature over the header fields and the body.
 *
 * <p>Threading: called on the sending thread, concurrently for different requests; implementations
 * are thread-safe. It may add header fields; it must not consume or release a {@code ByteBuf} body.
 */
@FunctionalInterface
public interface OutgoingRequestHook {

    /** Sends requests as they are. */
    OutgoingRequestHook NONE = (address, request) -> { };

    /**
     * @param address the {@code host:port} the request goes to
     * @param request the request, complete but for what the hook adds
     */
    void beforeSend(String address, RemotingCommand request);
}
