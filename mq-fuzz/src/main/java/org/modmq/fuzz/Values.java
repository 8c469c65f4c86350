package org.modmq.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random values for header fields and bodies: mostly plausible ones of a field's kind, sometimes the
 * values that break parsers (empty, huge, negative, not a number, control characters, lone
 * surrogates, text of several kilobytes). Stateless; the randomness comes from the caller's
 * {@link SplittableRandom}, so one seed gives one sequence.
 */
public final class Values {

    /** Text that is wrong for almost any field. */
    private static final List<String> HOSTILE = List.of("", " ", "-1", "-2147483649", "2147483648",
            "9223372036854775808", "-9223372036854775808", "1e9", "1.5", "0x10", "NaN", "null", "true", "false",
            "abc", "\u0000", "\u0001\u0002", "%RETRY%", "%DLQ%", "..", "a b", "a\nb", "\ud800", "\uffff",
            "\u00e9\u4e2d", "{", "[]", "{\"a\":1}", "*", "||", "TAGS\u0001x\u0002", "127.0.0.1:", ":0", "*;*");

    private Values() {
    }

    /** @return {@code true} with probability {@code p} */
    public static boolean chance(SplittableRandom random, double p) {
        return random.nextDouble() < p;
    }

    /** @return one element of {@code choices} */
    public static <T> T pick(SplittableRandom random, List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    /** @return a value that breaks most parsers */
    public static String hostile(SplittableRandom random) {
        return switch (random.nextInt(10)) {
            case 0 -> text(random, 128 + random.nextInt(8192));
            case 1 -> Long.toString(random.nextLong());
            case 2 -> Integer.toString(random.nextInt());
            default -> pick(random, HOSTILE);
        };
    }

    /** @return an int near the edges more often than uniform: 0, 1, -1, small, the extremes */
    public static int edgyInt(SplittableRandom random) {
        return switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> -1;
            case 2 -> Integer.MAX_VALUE;
            case 3 -> Integer.MIN_VALUE;
            case 4 -> random.nextInt();
            default -> random.nextInt(64);
        };
    }

    /** @return a long near the edges more often than uniform */
    public static long edgyLong(SplittableRandom random) {
        return switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> -1;
            case 2 -> Long.MAX_VALUE;
            case 3 -> Long.MIN_VALUE;
            case 4 -> random.nextLong();
            case 5 -> random.nextLong(1L << 32);
            default -> random.nextInt(4096);
        };
    }

    /**
     * @return a string of {@code length} characters drawn from one of several alphabets: identifier
     *     characters, printable ASCII, any BMP character (lone surrogates included), RocketMQ's
     *     property separators
     */
    public static String text(SplittableRandom random, int length) {
        int alphabet = random.nextInt(4);
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(switch (alphabet) {
                case 0 -> IDENTIFIER.charAt(random.nextInt(IDENTIFIER.length()));
                case 1 -> (char) (0x20 + random.nextInt(0x5f));
                case 2 -> (char) random.nextInt(0x10000);
                default -> "ab\u0001\u0002=%|\n ".charAt(random.nextInt(9));
            });
        }
        return out.toString();
    }

    private static final String IDENTIFIER = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-%|";

    /** @return {@code length} random bytes */
    public static byte[] bytes(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i += 8) {
            long word = random.nextLong();
            for (int j = i; j < Math.min(length, i + 8); j++) {
                bytes[j] = (byte) word;
                word >>>= 8;
            }
        }
        return bytes;
    }

    /** @return a size for a body or part: mostly small, sometimes a few kilobytes, rarely up to 256 KiB */
    public static int size(SplittableRandom random) {
        return switch (random.nextInt(10)) {
            case 0 -> 0;
            case 1 -> 1024 + random.nextInt(16 * 1024);
            case 2 -> random.nextInt(20) == 0 ? random.nextInt(256 * 1024) : random.nextInt(256);
            default -> random.nextInt(256);
        };
    }

    /** @return {@code text} as UTF-8 */
    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
