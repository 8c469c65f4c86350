package org.modmq.controller.core;

import java.util.concurrent.CompletableFuture;
import org.modmq.controller.state.ControllerEvent;
import org.modmq.controller.state.ControllerState;
import org.modmq.controller.state.EventResult;

/**
 * The replicated log the controller writes its events to, and the state they built. The Ratis
 * implementation lives in {@code org.modmq.controller.raft}; tests use an in-memory one.
 *
 * <p>Threading: all methods are thread-safe.
 */
public interface EventLog extends AutoCloseable {

    /** @return the state after the last applied entry on this peer (immutable) */
    ControllerState state();

    /** @return this peer's view of the leadership now */
    Leadership leadership();

    /**
     * Proposes an event and completes once this peer has applied it.
     *
     * @param event the event
     * @return what applying it did; fails with a {@link org.modmq.remoting.protocol.ResponseCodeException}
     *     ({@code CONTROLLER_NOT_LEADER}) when this peer is not the leader, lost it, or could not commit in time
     */
    CompletableFuture<EventResult> submit(ControllerEvent event);

    /** Stops the peer. Idempotent. */
    @Override
    void close();
}
