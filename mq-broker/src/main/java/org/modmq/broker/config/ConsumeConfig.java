package org.modmq.broker.config;

/**
 * Consumer-facing behaviour ({@code longPollingEnable}, {@code shortPollingTimeMills},
 * {@code slaveReadEnable}, {@code channelExpiredTimeout}, {@code flushConsumerOffsetInterval},
 * {@code accessMessageInMemoryMaxRatio}, and modmq's {@code readOffloadSendQueueDepth} and
 * {@code readOffloadCpuRatio}: from these a master counts as loaded and sends consumers to an in-sync
 * replica). Immutable; times in ms.
 */
public record ConsumeConfig(boolean longPollingEnable, long shortPollingTimeMillis, boolean slaveReadEnable,
                            long channelExpiredTimeoutMillis, long flushConsumerOffsetIntervalMillis,
                            int accessMessageInMemoryMaxRatio, int readOffloadSendQueueDepth,
                            double readOffloadCpuRatio) {

    static ConsumeConfig read(ConfigReader reader) {
        return new ConsumeConfig(
                reader.bool("longPollingEnable", true),
                reader.longIn("shortPollingTimeMills", 1_000, 1, 60_000),
                reader.bool("slaveReadEnable", false),
                reader.longIn("channelExpiredTimeout", 120_000, 1_000, 3_600_000),
                reader.longIn("flushConsumerOffsetInterval", 5_000, 100, 600_000),
                reader.intIn("accessMessageInMemoryMaxRatio", 40, 0, 100),
                reader.intIn("readOffloadSendQueueDepth", 1_000, 1, Integer.MAX_VALUE),
                reader.doubleIn("readOffloadCpuRatio", 0.8, 0.01, 1.01));
    }
}
