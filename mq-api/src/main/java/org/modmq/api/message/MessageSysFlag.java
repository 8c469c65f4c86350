package org.modmq.api.message;

/** Bits of a stored message's SYSFLAG field, as RocketMQ defines them. */
public final class MessageSysFlag {

    public static final int COMPRESSED = 0x1;
    public static final int MULTI_TAGS = 0x2;
    public static final int TRANSACTION_NOT_TYPE = 0x0;
    public static final int TRANSACTION_PREPARED_TYPE = 0x4;
    public static final int TRANSACTION_COMMIT_TYPE = 0x8;
    public static final int TRANSACTION_ROLLBACK_TYPE = 0xC;
    public static final int BORNHOST_V6 = 0x10;
    public static final int STOREHOST_V6 = 0x20;
    public static final int NEED_UNWRAP = 0x40;
    public static final int INNER_BATCH = 0x80;

    private MessageSysFlag() {
    }

    /** The transaction type bits (one of the {@code TRANSACTION_*} values). */
    public static int transactionType(int sysFlag) {
        return sysFlag & TRANSACTION_ROLLBACK_TYPE;
    }

    /** {@code sysFlag} with its transaction type bits replaced by {@code type}. */
    public static int withTransactionType(int sysFlag, int type) {
        return (sysFlag & ~TRANSACTION_ROLLBACK_TYPE) | type;
    }

    /**
     * Whether a record with {@code sysFlag} gets a queue offset and a ConsumeQueue entry: as in RocketMQ,
     * a prepared or rolled-back transaction record gets neither (its QUEUEOFFSET is 0).
     */
    public static boolean takesQueueOffset(int sysFlag) {
        int type = transactionType(sysFlag);
        return type == TRANSACTION_NOT_TYPE || type == TRANSACTION_COMMIT_TYPE;
    }
}
