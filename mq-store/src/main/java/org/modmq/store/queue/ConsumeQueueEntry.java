package org.modmq.store.queue;

/**
 * One ConsumeQueue entry.
 *
 * @param queueOffset the entry's index in its queue
 * @param commitLogOffset where the record starts in the CommitLog
 * @param size the record's TOTALSIZE
 * @param tagCode {@code TAGS.hashCode()} sign-extended, 0 without a tag
 */
public record ConsumeQueueEntry(long queueOffset, long commitLogOffset, int size, long tagCode) {
}
