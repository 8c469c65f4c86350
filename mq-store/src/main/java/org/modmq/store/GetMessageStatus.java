package org.modmq.store;

/** Outcome of {@link MessageStore#getMessages} (RocketMQ's GetMessageStatus names). */
public enum GetMessageStatus {
    /** At least one message. */
    FOUND,
    /** Entries were scanned but none matched the tag filter. */
    NO_MATCHED_MESSAGE,
    /** The CommitLog no longer holds the records the entries point at. */
    MESSAGE_WAS_REMOVING,
    /** The queue exists but holds no entries. */
    NO_MESSAGE_IN_QUEUE,
    /** The queue does not exist. */
    NO_MATCHED_LOGIC_QUEUE,
    /** The offset is below the queue's min offset. */
    OFFSET_TOO_SMALL,
    /** The offset equals the max offset: nothing new yet. */
    OFFSET_OVERFLOW_ONE,
    /** The offset is beyond the max offset. */
    OFFSET_OVERFLOW_BADLY,
    /** The ConsumeQueue file for the offset is missing. */
    OFFSET_FOUND_NULL
}
