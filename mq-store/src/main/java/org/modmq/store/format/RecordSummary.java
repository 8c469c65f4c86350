package org.modmq.store.format;

import org.modmq.api.message.DelayLevels;
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
 * @param delay the {@code DELAY} property of a record in {@link DelayLevels#SCHEDULE_TOPIC}, else null
 */
public record RecordSummary(long commitLogOffset, int size, String topic, int queueId, long queueOffset,
                            int sysFlag, long storeTimestamp, String tags, String keys, String uniqKey,
                            String delay) {

    /** This summary with the offsets and time an append assigned (a summary read before they were). */
    public RecordSummary assigned(long commitLogOffset, long queueOffset, long storeTimestamp) {
        return new RecordSummary(commitLogOffset, size, topic, queueId, queueOffset, sysFlag, storeTimestamp, tags,
                keys, uniqKey, delay);
    }

    /** The ConsumeQueue tag code. */
    public long tagsCode() {
        return MessageProperties.tagsCode(tags);
    }

    /**
     * The ConsumeQueue tag code with delay levels: a SCHEDULE_TOPIC_XXXX record of level &gt; 0 gets its
     * delivery time, as RocketMQ's dispatch gives it (a level above the highest counts as the highest);
     * a level that is not a number keeps the tag code (the delivery agent skips such a record).
     */
    public long tagsCode(DelayLevels levels) {
        if (delay != null && DelayLevels.SCHEDULE_TOPIC.equals(topic)) {
            try {
                int level = Integer.parseInt(delay);
                if (level > 0) {
                    return levels.deliverAt(level, storeTimestamp);
                }
            } catch (NumberFormatException e) {
                return tagsCode();
            }
        }
        return tagsCode();
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
