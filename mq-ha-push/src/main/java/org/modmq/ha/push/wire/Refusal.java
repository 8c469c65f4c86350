package org.modmq.ha.push.wire;

/** Why a master refuses a replica (the code in a REFUSE frame). */
public enum Refusal {
    /** The replica's log holds bytes the master lacks, or its tail differs from the master's. */
    DIVERGED(1),
    /** The master no longer holds the replica's next offset (its log starts later). */
    GAP(2),
    /** Bad magic or an unsupported protocol version. */
    PROTOCOL(3);

    private final byte code;

    Refusal(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
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
