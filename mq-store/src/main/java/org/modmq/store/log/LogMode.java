package org.modmq.store.log;

/** Which writes a {@link CommitLog} takes; switched by the store on role changes. */
public enum LogMode {
    /** Local appends (a master). */
    LOCAL,
    /** Replicated appends and truncation (a replica). */
    REPLICATED,
    /** Neither: a role change is in progress. */
    CLOSED
}
