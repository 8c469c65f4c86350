package org.modmq.store.recovery;

/**
 * What recovery found.
 *
 * @param abnormal whether the abort file was present (the previous run did not close cleanly)
 * @param verifiedFrom CommitLog offset the walk started at (the end itself after a clean close)
 * @param end CommitLog end after recovery
 * @param recordsVerified records whose magic, size and body CRC were checked
 * @param corruptOffset offset of the first bad record, -1 when none
 * @param corruptReason why it was bad, empty when none
 */
public record RecoveryOutcome(boolean abnormal, long verifiedFrom, long end, long recordsVerified,
                              long corruptOffset, String corruptReason) {
}
