package org.modmq.store.format;

import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.MessageSysFlag;

/**
 * What dispatch needs from one stored record.
 *
 * @param commitLogOffset PHYSICALOFFSET
 * @param size TOTALSIZE
 * @param topic topic
 * @param queueId QUEUEID
 * @param queueOffset QUEUEOFFSET
 * @param sysFlag SYSFLAG
 * @param storeTimestamp STORETIMESTAMP
 * @param tags the {@code TAGS} property, or null
 * @param keys the {@code KEYS} property (space-separated keys), or null
 * @param uniqKey the {@code UNIQ_KEY} property, or null
 */
public record RecordSummary(long commitLogOffset, int size, String topic, int queueId, long queueOffset,
                            int sysFlag, long storeTimestamp, String tags, String keys, String uniqKey) {

    /** The ConsumeQueue tag code. */
    public long tagsCode() {
        return MessageProperties.tagsCode(tags);
    }

    /** Whether the record gets a ConsumeQueue entry (not a prepared or rolled-back transaction). */
    public boolean consumable() {
        return MessageSysFlag.takesQueueOffset(sysFlag);
    }

    /** Whether the record is indexed by key (not a rolled-back transaction). */
    public boolean indexable() {
        return MessageSysFlag.transactionType(sysFlag) != MessageSysFlag.TRANSACTION_ROLLBACK_TYPE;
    }
}
