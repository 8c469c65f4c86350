package org.modmq.fuzz;

/** Text and bytes made short and printable for failure reports. Stateless. */
final class Printable {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Printable() {
    }

    /** Control characters as {@code \\uXXXX}, cut after {@code max} characters with the full length noted. */
    static String of(String value, int max) {
        if (value == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("\"");
        int shown = Math.min(value.length(), max);
        for (int i = 0; i < shown; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f || Character.isSurrogate(c)) {
                out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF])
                        .append(HEX[c & 0xF]);
            } else {
                out.append(c);
            }
        }
        out.append('"');
        if (value.length() > max) {
            out.append("...(").append(value.length()).append(" chars)");
        }
        return out.toString();
    }

    /** The first {@code max} bytes in hex, with the full length noted when cut. */
    static String hex(byte[] bytes, int max) {
        int shown = Math.min(bytes.length, max);
        StringBuilder out = new StringBuilder(shown * 2 + 24);
        for (int i = 0; i < shown; i++) {
            out.append(HEX[(bytes[i] >> 4) & 0xF]).append(HEX[bytes[i] & 0xF]);
        }
        if (bytes.length > max) {
            out.append("...(").append(bytes.length).append(" bytes)");
        }
        return out.toString();
    }
}
