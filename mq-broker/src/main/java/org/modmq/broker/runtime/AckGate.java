package org.modmq.broker.runtime;

import java.util.concurrent.CompletableFuture;
import org.modmq.store.PutResult;

/**
 * The last step before a send is answered: a stored message's result passes only while this broker may
 * acknowledge writes (controller mode: while its master lease holds). Implementations are thread-safe and
 * never block; the future never completes exceptionally.
 */
@FunctionalInterface
public interface AckGate {

    /** Classic replication: every answer passes at once. */
    AckGate OPEN = CompletableFuture::completedFuture;

    /**
     * @param stored the result of a stored send (its offsets set), as flush and replication left it
     * @return the same result once it may be answered, or one saying why it may not be
     */
    CompletableFuture<PutResult> admit(PutResult stored);
}
