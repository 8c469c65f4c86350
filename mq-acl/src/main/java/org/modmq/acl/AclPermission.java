package org.modmq.acl;

import java.util.Locale;
import org.modmq.api.config.ConfigException;

/**
 * RocketMQ's ACL permission bits and how a file names them. A permission is a byte of flags:
 * {@link #DENY} (1), {@link #ANY} (2), {@link #PUB} (4), {@link #SUB} (8). Stateless.
 */
public final class AclPermission {

    /** Nothing is allowed; wins over every other bit. */
    public static final byte DENY = 1;
    /** Needed-side only: either PUB or SUB is enough. */
    public static final byte ANY = 2;
    /** Send to a topic. */
    public static final byte PUB = 4;
    /** Consume from a topic, or act as a consumer group. */
    public static final byte SUB = 8;

    private AclPermission() {
    }

    /**
     * Parses a permission as {@code plain_acl.yml} writes it: {@code PUB}, {@code SUB},
     * {@code PUB|SUB} (or {@code SUB|PUB}), {@code DENY}; case and spaces around the bar are ignored.
     *
     * @param text the value
     * @param what names the value in the error, e.g. {@code defaultTopicPerm of account app1}
     * @return the bits
     * @throws ConfigException when the text is none of those
     */
    public static byte parse(String text, String what) {
        String normalized = text == null ? "" : text.replace(" ", "").toUpperCase(Locale.ROOT);
        return switch (normalized) {
            case "PUB" -> PUB;
            case "SUB" -> SUB;
            case "PUB|SUB", "SUB|PUB" -> (byte) (PUB | SUB);
            case "DENY" -> DENY;
            default -> throw new ConfigException(what + " is '" + text + "': expected PUB, SUB, PUB|SUB or DENY");
        };
    }

    /**
     * @param needed the bits a request needs
     * @param owned the bits an account has for the resource
     * @return whether {@code owned} grants {@code needed}
     */
    public static boolean allows(byte needed, byte owned) {
        if ((owned & DENY) != 0) {
            return false;
        }
        if ((needed & ANY) != 0) {
            return (owned & (PUB | SUB)) != 0;
        }
        return (needed & owned) != 0;
    }

    /** @return the bits as a file would name them, e.g. {@code PUB|SUB} */
    public static String name(byte bits) {
        if ((bits & DENY) != 0) {
            return "DENY";
        }
        boolean pub = (bits & PUB) != 0;
        boolean sub = (bits & SUB) != 0;
        return pub && sub ? "PUB|SUB" : pub ? "PUB" : sub ? "SUB" : (bits & ANY) != 0 ? "ANY" : "NONE";
    }
}
