package org.modmq.broker.config;

/**
 * Sizes of the bounded request executors ({@code sendMessageThreadPoolNums},
 * {@code pullMessageThreadPoolNums}, {@code adminBrokerThreadPoolNums},
 * {@code clientManageThreadPoolNums}, {@code consumerManageThreadPoolNums} and the matching
 * {@code *ThreadPoolQueueCapacity} keys). A full queue answers SYSTEM_BUSY. Immutable.
 */
public record ExecutorConfig(int sendThreads, int sendQueueCapacity, int pullThreads, int pullQueueCapacity,
                             int adminThreads, int clientManageThreads, int clientManageQueueCapacity,
                             int consumerManageThreads, int consumerManageQueueCapacity) {

    static ExecutorConfig read(ConfigReader reader) {
        int cpus = Runtime.getRuntime().availableProcessors();
        return new ExecutorConfig(
                reader.intIn("sendMessageThreadPoolNums", Math.min(cpus, 4), 1, 512),
                reader.intIn("sendThreadPoolQueueCapacity", 10_000, 1, 10_000_000),
                reader.intIn("pullMessageThreadPoolNums", 16 + cpus * 2, 1, 512),
                reader.intIn("pullThreadPoolQueueCapacity", 100_000, 1, 10_000_000),
                reader.intIn("adminBrokerThreadPoolNums", 16, 1, 512),
                reader.intIn("clientManageThreadPoolNums", 32, 1, 512),
                reader.intIn("clientManagerThreadPoolQueueCapacity", 1_000_000, 1, 10_000_000),
                reader.intIn("consumerManageThreadPoolNums", 32, 1, 512),
                reader.intIn("consumerManagerThreadPoolQueueCapacity", 1_000_000, 1, 10_000_000));
    }
}
