package org.modmq.api.message;

/**
 * The outcome of storing a message, with the RocketMQ remoting response code a broker answers with.
 */
public enum PutStatus {
    PUT_OK(0),
    FLUSH_DISK_TIMEOUT(10),
    FLUSH_SLAVE_TIMEOUT(12),
    SLAVE_NOT_AVAILABLE(11),
    SERVICE_NOT_AVAILABLE(14),
    MESSAGE_ILLEGAL(13),
    PROPERTIES_SIZE_EXCEEDED(13),
    DISK_FULL(14),
    /** Controller mode: the SyncStateSet is smaller than {@code minInSyncReplicas} (RocketMQ answers SYSTEM_ERROR). */
    IN_SYNC_REPLICAS_NOT_ENOUGH(1),
    UNKNOWN_ERROR(1);

    private final int responseCode;

    PutStatus(int responseCode) {
        this.responseCode = responseCode;
    }

    /** The remoting response code ({@code SUCCESS}=0, {@code FLUSH_DISK_TIMEOUT}=10, ...). */
    public int responseCode() {
        return responseCode;
    }
}
