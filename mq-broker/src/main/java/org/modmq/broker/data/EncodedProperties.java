package org.modmq.broker.data;

import java.util.Arrays;
import java.util.function.Supplier;
import org.modmq.api.message.MessageProperties;

/**
 * A message's properties string read in place, for the common case where decoding it into a map and
 * encoding it again would give back the same text: every entry has a name and a value, no name repeats
 * and the broker's own {@code CLUSTER} is not there yet. {@link #parse} answers {@code null} for every
 * other string, and the caller then takes the map path ({@link MessageProperties#decode},
 * {@link BrokerProperties#complete}, {@link MessageProperties#encode}), whose result this class
 * reproduces character for character. It spares a batch's messages two maps and two copies each.
 * Immutable.
 */
final class EncodedProperties {

    private static final char NAME_END = MessageProperties.NAME_VALUE_SEPARATOR;
    private static final char ENTRY_END = MessageProperties.PROPERTY_SEPARATOR;
    /** More entries than this take the map path: the duplicate check below is quadratic. */
    private static final int MAX_ENTRIES = 32;

    private final String text;
    /** Per entry: where its name starts, where its name ends (the separator), where the entry ends. */
    private final int[] bounds;
    private final int entries;

    private EncodedProperties(String text, int[] bounds, int entries) {
        this.text = text;
        this.bounds = bounds;
        this.entries = entries;
    }

    /** The entries of {@code encoded}, or {@code null} when the map path must decide (see the class comment). */
    static EncodedProperties parse(String encoded) {
        int[] bounds = new int[3 * 8];
        int count = 0;
        int start = 0;
        while (start < encoded.length()) {
            int end = encoded.indexOf(ENTRY_END, start);
            if (end < 0) {
                end = encoded.length();
            }
            int split = encoded.indexOf(NAME_END, start);
            // An empty name or value, or no separator in the entry: the decoder drops it, so the text changes.
            if (split <= start || split >= end - 1 || count == MAX_ENTRIES) {
                return null;
            }
            if (3 * count + 3 > bounds.length) {
                bounds = Arrays.copyOf(bounds, bounds.length * 2);
            }
            bounds[3 * count] = start;
            bounds[3 * count + 1] = split;
            bounds[3 * count + 2] = end;
            count++;
            start = end + 1;
        }
        EncodedProperties parsed = new EncodedProperties(encoded, bounds, count);
        for (int i = 0; i < count; i++) {
            for (int j = i + 1; j < count; j++) {
                if (parsed.sameName(i, j)) {
                    return null;
                }
            }
        }
        return parsed.index(MessageProperties.CLUSTER) >= 0 ? null : parsed;
    }

    /** The value of {@code name}, or {@code null}. */
    String get(String name) {
        int i = index(name);
        return i < 0 ? null : text.substring(bounds[3 * i + 1] + 1, bounds[3 * i + 2]);
    }

    /**
     * What {@code encode(BrokerProperties.complete(decode(text)))} gives: the entries as they are, then
     * {@code CLUSTER}, and {@code MSG_REGION}, {@code TRACE_ON} and {@code UNIQ_KEY} where absent.
     */
    String completed(String cluster, Supplier<String> uniqueKey) {
        StringBuilder out = new StringBuilder(text.length() + 96).append(text);
        if (!text.isEmpty() && text.charAt(text.length() - 1) != ENTRY_END) {
            out.append(ENTRY_END);
        }
        append(out, MessageProperties.CLUSTER, cluster);
        if (index(MessageProperties.MSG_REGION) < 0) {
            append(out, MessageProperties.MSG_REGION, BrokerProperties.DEFAULT_REGION);
        }
        if (index(MessageProperties.TRACE_ON) < 0) {
            append(out, MessageProperties.TRACE_ON, "true");
        }
        if (index(MessageProperties.UNIQ_KEY) < 0) {
            append(out, MessageProperties.UNIQ_KEY, uniqueKey.get());
        }
        return out.toString();
    }

    private static void append(StringBuilder out, String name, String value) {
        out.append(name).append(NAME_END).append(value).append(ENTRY_END);
    }

    private int index(String name) {
        for (int i = 0; i < entries; i++) {
            int start = bounds[3 * i];
            if (bounds[3 * i + 1] - start == name.length() && text.startsWith(name, start)) {
                return i;
            }
        }
        return -1;
    }

    private boolean sameName(int i, int j) {
        int length = bounds[3 * i + 1] - bounds[3 * i];
        return length == bounds[3 * j + 1] - bounds[3 * j]
                && text.regionMatches(bounds[3 * i], text, bounds[3 * j], length);
    }
}
