package org.modmq.broker.transaction;

import org.modmq.broker.metadata.SystemTopics;

/** The names RocketMQ's transactional messages use in the store and on the wire. */
final class TransactionKeys {

    /** Set by the producer on a prepared send. */
    static final String TRAN_MSG = "TRAN_MSG";
    /** The producer group of a prepared send (set by the producer). */
    static final String PGROUP = "PGROUP";
    static final String REAL_TOPIC = "REAL_TOPIC";
    static final String REAL_QID = "REAL_QID";
    /** The UNIQ_KEY, copied by the broker into the half message. */
    static final String TRANSACTION_ID = "__transactionId__";
    /** How many check-backs a half message copy has had. */
    static final String CHECK_TIMES = "TRANSACTION_CHECK_TIMES";
    /** The producer's first-check delay, seconds (never shorter than {@code transactionTimeOut}). */
    static final String CHECK_IMMUNITY_SECONDS = "CHECK_IMMUNITY_TIME_IN_SECONDS";
    /** On a copy of a half message: the half queue offset of the original prepared message. */
    static final String PREPARED_QUEUE_OFFSET = "TRAN_PREPARED_QUEUE_OFFSET";

    static final String HALF_TOPIC = SystemTopics.TRANS_HALF;
    static final String OP_TOPIC = SystemTopics.TRANS_OP_HALF;
    static final String CHECK_MAX_TOPIC = SystemTopics.TRANS_CHECK_MAX_TIME;
    /** The internal consumer group whose offsets on the half and op topics are the check-back's progress. */
    static final String GROUP = "CID_RMQ_SYS_TRANS";
    /** The tag of an op record; its body lists half queue offsets, each followed by {@code ,}. */
    static final String REMOVE_TAG = "d";
    static final int QUEUE = 0;

    private TransactionKeys() {
    }
}
