package org.modmq.api.config;

/** {@code flushDiskType}: the names of the two flush policies modmq ships. */
public enum FlushDiskType {
    /** Group commit: a send is answered after the force that covers it. */
    SYNC_FLUSH,
    /** Periodic force: a send is answered once the bytes are written. */
    ASYNC_FLUSH
}
