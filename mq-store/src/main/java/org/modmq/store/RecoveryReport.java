package org.modmq.store;

/**
 * What the store found when it opened.
 *
 * @param abnormal the previous run did not close cleanly (the abort file was there)
 * @param verifiedFrom CommitLog offset from which records were verified
 * @param commitLogEnd the CommitLog end after recovery
 * @param recordsVerified records checked (magic, size, position, body CRC)
 * @param corruptOffset where a bad or torn record was found and the log cut, -1 when none
 * @param corruptReason why that record was bad, empty when none
 */
public record RecoveryReport(boolean abnormal, long verifiedFrom, long commitLogEnd, long recordsVerified,
                             long corruptOffset, String corruptReason) {

    /** Whether a bad record was found (and everything from it dropped). */
    public boolean corruptionFound() {
        return corruptOffset >= 0;
    }
}
