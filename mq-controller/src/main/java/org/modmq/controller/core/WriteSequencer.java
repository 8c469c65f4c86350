package org.modmq.controller.core;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Runs asynchronous writes one after another: the next decision starts only when the previous write
 * has been applied (or failed), so every decision sees the state every earlier write left, as
 * RocketMQ's single-threaded event scheduler does. No thread waits: the tasks are chained.
 *
 * <p>Threading: thread-safe; a task runs on the thread that completed the previous one, or on the
 * caller's when the queue is idle, so tasks must not block.
 */
public final class WriteSequencer {

    private CompletableFuture<?> tail = CompletableFuture.completedFuture(null);

    /**
     * Queues a write.
     *
     * @param task starts the write and returns its future; called once, after every earlier write ended
     * @return the write's outcome
     */
    public <T> CompletableFuture<T> run(Supplier<CompletableFuture<T>> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        CompletableFuture<?> previous;
        synchronized (this) {
            previous = tail;
            tail = result.handle((value, error) -> null);
        }
        previous.whenComplete((ignored, error) -> {
            try {
                task.get().whenComplete((value, failure) -> {
                    if (failure != null) {
                        result.completeExceptionally(failure);
                    } else {
                        result.complete(value);
                    }
                });
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }
}
