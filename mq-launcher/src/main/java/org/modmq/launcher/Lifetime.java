package org.modmq.launcher;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a launcher's main thread until the JVM is asked to stop (SIGTERM/SIGINT), when a shutdown hook
 * closes the servers in the order given. Stateless.
 */
final class Lifetime {

    private static final Logger LOG = LoggerFactory.getLogger(Lifetime.class);

    private Lifetime() {
    }

    /** Blocks until shutdown; {@code closeInOrder} are closed by the hook, each even if an earlier one fails. */
    static void runUntilShutdown(String name, List<? extends AutoCloseable> closeInOrder) {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("shutdown requested");
            closeAll(closeInOrder);
            stopped.countDown();
        }, name + "ShutdownHook"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeAll(closeInOrder);
        }
    }

    /** Closes each, logging failures. */
    static void closeAll(List<? extends AutoCloseable> closeInOrder) {
        for (AutoCloseable closeable : closeInOrder) {
            if (closeable == null) {
                continue;
            }
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warn("closing {} failed", closeable, e);
            }
        }
    }
}
