package org.modmq.broker.config;

/**
 * Transactional messages, with RocketMQ 5.3.3's keys and defaults. Immutable; times in ms.
 *
 * @param checkIntervalMillis {@code transactionCheckInterval}: how often the check-back runs (30 000)
 * @param timeoutMillis {@code transactionTimeOut}: how old a half message must be before its producer
 *     is asked (6 000); a message's {@code CHECK_IMMUNITY_TIME_IN_SECONDS} can only lengthen it
 * @param checkMax {@code transactionCheckMax}: check-backs before a half message is discarded (15)
 * @param rejectTransactionMessage {@code rejectTransactionMessage}: refuse prepared sends (false)
 */
public record TransactionConfig(long checkIntervalMillis, long timeoutMillis, int checkMax,
                                boolean rejectTransactionMessage) {

    static TransactionConfig read(ConfigReader reader) {
        return new TransactionConfig(
                reader.longIn("transactionCheckInterval", 30_000, 10, 86_400_000),
                reader.longIn("transactionTimeOut", 6_000, 0, 86_400_000),
                reader.intIn("transactionCheckMax", 15, 1, 10_000),
                reader.bool("rejectTransactionMessage", false));
    }
}
