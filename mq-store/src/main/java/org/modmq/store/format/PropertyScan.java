package org.modmq.store.format;

import org.modmq.api.message.MessageProperties;

/**
 * Looks up single properties in an encoded properties string ({@code name\u0001value\u0002...})
 * without building a map, with the same rules as {@link MessageProperties#decode}: a pair needs a
 * non-empty name and a non-empty value, and a later pair of the same name wins. Stateless.
 */
public final class PropertyScan {

    private PropertyScan() {
    }

    /** The value of {@code name} (non-empty, without separators) in {@code encoded}, or null when absent. */
    public static String find(String encoded, String name) {
        if (encoded == null || encoded.isEmpty()) {
            return null;
        }
        String found = null;
        int start = 0;
        int length = encoded.length();
        while (start < length) {
            int end = encoded.indexOf(MessageProperties.PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = length;
            }
            int split = start + name.length();
            if (split < end - 1 && encoded.charAt(split) == MessageProperties.NAME_VALUE_SEPARATOR
                    && encoded.startsWith(name, start)) {
                found = encoded.substring(split + 1, end);
            }
            start = end + 1;
        }
        return found;
    }
}
