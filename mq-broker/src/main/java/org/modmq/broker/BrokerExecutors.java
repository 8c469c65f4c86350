package org.modmq.broker;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.modmq.broker.config.ExecutorConfig;
import org.modmq.broker.runtime.ProcessorRegistrar;
import org.modmq.remoting.netty.ProcessorExecutors;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RequestProcessor;

/**
 * The bounded executors of the broker's processors, one per {@link ProcessorRegistrar.ExecutorKind},
 * and the registrar that binds processors to them on the remoting server. Owns the executors;
 * {@link #close()} stops them after the server was closed. Registration happens on the start-up
 * thread; close is idempotent.
 */
final class BrokerExecutors implements ProcessorRegistrar, AutoCloseable {

    private final java.util.List<RemotingServer> servers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final java.util.List<Runnable> registrations = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<ExecutorKind, ExecutorService> executors = new EnumMap<>(ExecutorKind.class);

    BrokerExecutors(RemotingServer server, ExecutorConfig config) {
        servers.add(Objects.requireNonNull(server, "server"));
        executors.put(ExecutorKind.SEND, ProcessorExecutors.bounded("SendMessageThread", config.sendThreads(),
                config.sendQueueCapacity()));
        executors.put(ExecutorKind.PULL, ProcessorExecutors.bounded("PullMessageThread", config.pullThreads(),
                config.pullQueueCapacity()));
        executors.put(ExecutorKind.ADMIN, ProcessorExecutors.bounded("AdminBrokerThread", config.adminThreads(),
                10_000));
        executors.put(ExecutorKind.CLIENT_MANAGE, ProcessorExecutors.bounded("ClientManageThread",
                config.clientManageThreads(), config.clientManageQueueCapacity()));
        executors.put(ExecutorKind.CONSUMER_MANAGE, ProcessorExecutors.bounded("ConsumerManageThread",
                config.consumerManageThreads(), config.consumerManageQueueCapacity()));
    }

    /** The executors by kind, for queue-size reporting; the map is a read-only view. */
    public Map<ExecutorKind, ExecutorService> executors() {
        return java.util.Collections.unmodifiableMap(executors);
    }

    @Override
    public synchronized void register(ExecutorKind kind, RequestProcessor processor, int... codes) {
        Objects.requireNonNull(processor, "processor");
        ExecutorService executor = executors.get(Objects.requireNonNull(kind, "kind"));
        int[] bound = codes.clone();
        for (RemotingServer server : servers) {
            for (int code : bound) {
                server.registerProcessor(code, processor, executor);
            }
        }
        registrations.add(() -> {
            for (int code : bound) {
                servers.get(servers.size() - 1).registerProcessor(code, processor, executor);
            }
        });
    }

    /** Serves every processor registered so far, and every later one, on {@code server} too (the VIP port). */
    synchronized void alsoOn(RemotingServer server) {
        servers.add(Objects.requireNonNull(server, "server"));
        registrations.forEach(Runnable::run);
    }

    /** Stops every executor, waiting up to 5 s in total for running tasks. Idempotent. */
    @Override
    public void close() {
        executors.values().forEach(ExecutorService::shutdown);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        try {
            for (ExecutorService executor : executors.values()) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !executor.awaitTermination(left, TimeUnit.NANOSECONDS)) {
                    executor.shutdownNow();
                }
            }
        } catch (InterruptedException e) {
            executors.values().forEach(ExecutorService::shutdownNow);
            Thread.currentThread().interrupt();
        }
    }
}
