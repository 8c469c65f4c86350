package org.modmq.broker.transaction;

import org.modmq.api.message.MessageSysFlag;
import org.modmq.remoting.protocol.HeaderFieldException;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.RemotingCommand;

/**
 * The fields of END_TRANSACTION (37), RocketMQ's {@code EndTransactionRequestHeader}: the producer group,
 * the half message's queue offset ({@code tranStateTableOffset}) and CommitLog offset, the outcome
 * ({@code commitOrRollback}: 0 unknown, 8 commit, 12 rollback), whether it answers a check-back, and the
 * message and transaction ids. Immutable.
 */
record EndTransactionHeader(String producerGroup, long tranStateTableOffset, long commitLogOffset,
                            int commitOrRollback, boolean fromTransactionCheck, String msgId, String transactionId) {

    /**
     * @throws HeaderFieldException naming a missing or malformed field (SYSTEM_ERROR, as a stock broker
     *     answers a header it cannot decode)
     */
    static EndTransactionHeader parse(RemotingCommand request) {
        HeaderFields fields = request.headers();
        int outcome = fields.requireInt("commitOrRollback");
        if (outcome != MessageSysFlag.TRANSACTION_NOT_TYPE && outcome != MessageSysFlag.TRANSACTION_COMMIT_TYPE
                && outcome != MessageSysFlag.TRANSACTION_ROLLBACK_TYPE) {
            throw new HeaderFieldException("commitOrRollback", "commitOrRollback field wrong: " + outcome
                    + " (0 unknown, 8 commit, 12 rollback)");
        }
        long queueOffset = fields.requireLong("tranStateTableOffset");
        long commitLogOffset = fields.requireLong("commitLogOffset");
        if (queueOffset < 0 || commitLogOffset < 0) {
            throw new HeaderFieldException(queueOffset < 0 ? "tranStateTableOffset" : "commitLogOffset",
                    "tranStateTableOffset and commitLogOffset must not be negative");
        }
        return new EndTransactionHeader(fields.requireString("producerGroup"), queueOffset, commitLogOffset, outcome,
                fields.optionalBoolean("fromTransactionCheck", false), fields.requireString("msgId"),
                fields.optionalString("transactionId", null));
    }

    boolean commit() {
        return commitOrRollback == MessageSysFlag.TRANSACTION_COMMIT_TYPE;
    }

    boolean rollback() {
        return commitOrRollback == MessageSysFlag.TRANSACTION_ROLLBACK_TYPE;
    }
}
