package org.modmq.broker.runtime;

import org.modmq.remoting.netty.RequestProcessor;

/**
 * Where processors are registered before the broker's remoting server starts. Each processor runs on
 * the bounded executor of its {@link ExecutorKind}; a full executor answers SYSTEM_BUSY.
 * Used on the start-up thread only.
 */
public interface ProcessorRegistrar {

    /** The executor families of the broker (sizes from {@code broker.conf}). */
    enum ExecutorKind { SEND, PULL, ADMIN, CLIENT_MANAGE, CONSUMER_MANAGE }

    /** Registers {@code processor} for every code in {@code codes}; a later registration replaces. */
    void register(ExecutorKind kind, RequestProcessor processor, int... codes);
}
