package org.modmq.api.message;

import java.util.Objects;

/**
 * A message as read back from the CommitLog: the stored fields plus those the store assigned.
 *
 * @param message the fields the broker supplied
 * @param storeSize TOTALSIZE of the record, bytes
 * @param bodyCrc BODYCRC as stored
 * @param queueOffset QUEUEOFFSET, the index in its ConsumeQueue
 * @param commitLogOffset PHYSICALOFFSET, where the record starts in the CommitLog
 * @param storeTimestamp STORETIMESTAMP, ms
 */
public record StoredMessage(BrokerMessage message, int storeSize, int bodyCrc, long queueOffset,
                            long commitLogOffset, long storeTimestamp) {

    public StoredMessage {
        Objects.requireNonNull(message, "message");
    }
}
