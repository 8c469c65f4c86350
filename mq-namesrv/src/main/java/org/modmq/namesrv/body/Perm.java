package org.modmq.namesrv.body;

/** Permission bits of a topic or a broker. */
public final class Perm {

    /** Priority flag. */
    public static final int PRIORITY = 8;
    /** Readable. */
    public static final int READ = 4;
    /** Writable. */
    public static final int WRITE = 2;
    /** Template for auto-creation. */
    public static final int INHERIT = 1;

    private Perm() {
    }
}
