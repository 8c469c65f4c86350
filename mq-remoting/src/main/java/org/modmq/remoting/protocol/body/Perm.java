package org.modmq.remoting.protocol.body;

/**
 * RocketMQ's permission bits of topics and brokers: 8 PRIORITY, 4 READ, 2 WRITE, 1 INHERIT (a topic
 * with INHERIT is a template for auto-creation). Stateless.
 */
public final class Perm {

    public static final int PRIORITY = 8;
    public static final int READ = 4;
    public static final int WRITE = 2;
    public static final int INHERIT = 1;
    public static final int READ_WRITE = READ | WRITE;

    private Perm() {
    }

    public static boolean readable(int perm) {
        return (perm & READ) != 0;
    }

    public static boolean writable(int perm) {
        return (perm & WRITE) != 0;
    }

    public static boolean inherits(int perm) {
        return (perm & INHERIT) != 0;
    }
}
