package org.modmq.store.recovery;

/**
 * What recovery found.
 *
 * @param abnormal whether the abort file was present (the previous run did not close cleanly)
 * @param verifiedFrom CommitLog offset the walk started at (the end itself after a clean close)
 * @param end CommitLog end after recovery
 * @param recordsVerified records whose magic, size and position were checked (and body CRC, see
 *     {@link #crcFrom})
 * @param corruptOffset offset of the first bad record, -1 when none
 * @param corruptReason why it was bad, empty when none
 * @param crcFrom records from here on had their body CRC checked (the start of the first segment not
 *     wholly below the checkpoint's flushed offset); the end after a clean close
 * @param redispatchFrom where re-dispatch may start: the checkpoint's dispatched offset when the walk
 *     passed it as a record start, else the lower of it and {@code verifiedFrom} (not yet capped at the end)
 */
public record RecoveryOutcome(boolean abnormal, long verifiedFrom, long end, long recordsVerified,
                              long corruptOffset, String corruptReason, long crcFrom, long redispatchFrom) {
}
