package org.modmq.api.spi.replication;

/**
 * One entry of a log's epoch history (RocketMQ's {@code EpochEntry}): from {@code startOffset} on, the
 * log holds what the master of {@code epoch} wrote, up to the next entry's start (or the log's end).
 *
 * @param epoch master epoch, &gt; 0
 * @param startOffset CommitLog offset (bytes) of the first byte of that epoch, &gt;= 0
 */
public record EpochEntry(int epoch, long startOffset) {

    public EpochEntry {
        if (epoch <= 0) {
            throw new IllegalArgumentException("epoch " + epoch + " <= 0");
        }
        if (startOffset < 0) {
            throw new IllegalArgumentException("startOffset " + startOffset + " < 0");
        }
    }
}
