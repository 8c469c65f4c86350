package org.modmq.remoting.netty;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounded executors for request processors: a fixed number of threads and a bounded queue; a full
 * queue rejects (the remoting layer then answers {@code SYSTEM_BUSY}) instead of blocking.
 */
public final class ProcessorExecutors {

    private ProcessorExecutors() {
    }

    /**
     * @param name thread name prefix, e.g. {@code SendMessageThread}
     * @param threads number of threads, at least 1
     * @param queueCapacity queued tasks beyond the running ones, at least 1
     * @return a new executor; the caller owns it and shuts it down after closing the server
     */
    public static ThreadPoolExecutor bounded(String name, int threads, int queueCapacity) {
        AtomicInteger counter = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, name + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(queueCapacity), factory, new ThreadPoolExecutor.AbortPolicy());
    }
}
