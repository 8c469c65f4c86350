package org.modmq.store;

/**
 * One ConsumeQueue entry as the store's users see it.
 *
 * @param queueOffset the entry's index in its queue
 * @param commitLogOffset where the record starts in the CommitLog
 * @param size the record's TOTALSIZE
 * @param tagsCode the tag code: the {@code TAGS} hash, or in SCHEDULE_TOPIC_XXXX the delivery time (ms)
 */
public record QueueEntry(long queueOffset, long commitLogOffset, int size, long tagsCode) {
}
