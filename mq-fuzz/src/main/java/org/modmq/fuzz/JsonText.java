package org.modmq.fuzz;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * JSON documents for request bodies: a tree of maps, lists, strings, numbers, booleans and nulls
 * written as text, and the ways to spoil one (a value of the wrong type, a missing key, text cut
 * short, bytes flipped, nesting deeper than parsers allow). Writing only: nothing here parses JSON.
 * Stateless.
 */
public final class JsonText {

    private JsonText() {
    }

    /** @return {@code value} as JSON text; maps and lists nest, anything else but numbers and booleans is a string */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder(256);
        write(out, value);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                FrameWriter.string(out, String.valueOf(entry.getKey())).append(':');
                write(out, entry.getValue());
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(out, list.get(i));
            }
            out.append(']');
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else {
            FrameWriter.string(out, value.toString());
        }
    }

    /**
     * Replaces, removes or adds entries at random places of {@code tree} (maps and lists are copied,
     * the original is unchanged).
     *
     * @param changes how many changes to make
     */
    public static Object spoil(SplittableRandom random, Object tree, int changes) {
        Object result = copy(tree);
        for (int i = 0; i < changes; i++) {
            result = spoilOnce(random, result);
        }
        return result;
    }

    private static Object spoilOnce(SplittableRandom random, Object node) {
        if (node instanceof Map<?, ?> map && !map.isEmpty() && Values.chance(random, 0.7)) {
            @SuppressWarnings("unchecked")
            Map<Object, Object> entries = (Map<Object, Object>) map;
            List<Object> keys = new ArrayList<>(entries.keySet());
            Object key = keys.get(random.nextInt(keys.size()));
            switch (random.nextInt(4)) {
                case 0 -> entries.remove(key);
                case 1 -> entries.put(key, anyValue(random, 2));
                case 2 -> entries.put(Values.hostile(random), anyValue(random, 2));
                default -> entries.put(key, spoilOnce(random, entries.get(key)));
            }
            return entries;
        }
        if (node instanceof List<?> list && !list.isEmpty() && Values.chance(random, 0.7)) {
            @SuppressWarnings("unchecked")
            List<Object> items = (List<Object>) list;
            int at = random.nextInt(items.size());
            switch (random.nextInt(3)) {
                case 0 -> items.remove(at);
                case 1 -> items.add(anyValue(random, 2));
                default -> items.set(at, spoilOnce(random, items.get(at)));
            }
            return items;
        }
        return anyValue(random, 2);
    }

    /** @return a random JSON value, nested at most {@code depth} levels */
    public static Object anyValue(SplittableRandom random, int depth) {
        int kind = random.nextInt(depth > 0 ? 9 : 7);
        return switch (kind) {
            case 0 -> null;
            case 1 -> random.nextBoolean();
            case 2 -> Values.edgyLong(random);
            case 3 -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
            case 4, 5 -> Values.hostile(random);
            case 6 -> Values.text(random, random.nextInt(16));
            case 7 -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    map.put(Values.text(random, 1 + random.nextInt(8)), anyValue(random, depth - 1));
                }
                yield map;
            }
            default -> {
                List<Object> list = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    list.add(anyValue(random, depth - 1));
                }
                yield list;
            }
        };
    }

    /**
     * Spoils JSON text: cut short, a byte flipped, a brace dropped, nested past any parser's depth
     * limit, a number of thousands of digits, or random bytes.
     */
    public static byte[] spoilText(SplittableRandom random, byte[] text) {
        switch (random.nextInt(6)) {
            case 0:
                return java.util.Arrays.copyOf(text, text.length == 0 ? 0 : random.nextInt(text.length));
            case 1: {
                byte[] flipped = text.clone();
                if (flipped.length > 0) {
                    flipped[random.nextInt(flipped.length)] ^= (byte) (1 << random.nextInt(8));
                }
                return flipped;
            }
            case 2:
                return Values.utf8("[".repeat(1 + random.nextInt(20_000)));
            case 3:
                return Values.utf8("{\"a\":" + "9".repeat(1 + random.nextInt(20_000)) + "}");
            case 4:
                return Values.bytes(random, Values.size(random));
            default: {
                byte[] doubled = new byte[text.length * 2];
                System.arraycopy(text, 0, doubled, 0, text.length);
                System.arraycopy(text, 0, doubled, text.length, text.length);
                return doubled;
            }
        }
    }

    private static Object copy(Object node) {
        if (node instanceof Map<?, ?> map) {
            Map<Object, Object> duplicate = new LinkedHashMap<>();
            map.forEach((k, v) -> duplicate.put(k, copy(v)));
            return duplicate;
        }
        if (node instanceof List<?> list) {
            List<Object> duplicate = new ArrayList<>();
            list.forEach(v -> duplicate.add(copy(v)));
            return duplicate;
        }
        return node;
    }
}
