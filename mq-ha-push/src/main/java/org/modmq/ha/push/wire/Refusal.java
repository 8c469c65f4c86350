package org.modmq.ha.push.wire;

/**
 * Why a master refuses a replica (the code in a REFUSE frame), and whether the replica should try again:
 * a refusal that a later role change can resolve is {@linkplain #retryable() retryable}.
 */
public enum Refusal {
    /**
     * The replica's log cannot continue the master's: it holds bytes the master lacks, its tail differs
     * (classic logs), or the two epoch histories share no epoch (controller mode).
     */
    DIVERGED(1, false),
    /** The master no longer holds the replica's next offset (its log starts later). */
    GAP(2, false),
    /** Bad magic, an unsupported protocol version or a malformed HELLO. */
    PROTOCOL(3, false),
    /** The master's epoch is older than the replica's: it is a stale master and must not be followed. */
    STALE_MASTER(4, true),
    /** The broker listening there is a replica now and serves no replicas. */
    NOT_MASTER(5, true);

    private final byte code;
    private final boolean retryable;

    Refusal(int code, boolean retryable) {
        this.code = (byte) code;
        this.retryable = retryable;
    }

    public byte code() {
        return code;
    }

    /** Whether the replica keeps trying (with backoff) instead of waiting to be told again. */
    public boolean retryable() {
        return retryable;
    }

    /** The reason for {@code code}; {@link #PROTOCOL} for codes this version does not know. */
    public static Refusal of(byte code) {
        for (Refusal refusal : values()) {
            if (refusal.code == code) {
                return refusal;
            }
        }
        return PROTOCOL;
    }
}
