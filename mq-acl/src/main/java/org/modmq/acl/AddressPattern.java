package org.modmq.acl;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.modmq.api.config.ConfigException;

/**
 * A client-address pattern of {@code plain_acl.yml} ({@code globalWhiteRemoteAddresses},
 * {@code whiteRemoteAddress}), in the forms RocketMQ accepts:
 *
 * <ul>
 *   <li>blank: matches no address (the account must sign);</li>
 *   <li>{@code *}, {@code *.*.*.*} or {@code *:*:*:*:*:*:*:*}: every address;</li>
 *   <li>{@code 192.168.0.1} or an IPv6 literal: that address;</li>
 *   <li>{@code 192.168.0.1,192.168.0.2}: any of the listed addresses;</li>
 *   <li>{@code 192.168.0.{1,2}}: the last part is one of the listed numbers;</li>
 *   <li>{@code 192.168.1.*}, {@code 192.168.*.*}, {@code 10.*.*.*}: the leading parts are fixed, the rest
 *       anything;</li>
 *   <li>{@code 192.168.1.1-10}, {@code 192.168.1-10.*}: the first non-fixed part in a range (inclusive),
 *       the parts after it anything.</li>
 * </ul>
 *
 * Ranges and wildcards are IPv4 only. Immutable and thread-safe.
 */
public final class AddressPattern {

    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");
    private static final Pattern OCTET = Pattern.compile("25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d");

    private enum Kind { NONE, ANY, SET, RANGE }

    private final String text;
    private final Kind kind;
    private final Set<String> addresses;
    private final String head;
    private final int rangePart;
    private final int low;
    private final int high;

    private AddressPattern(String text, Kind kind, Set<String> addresses, String head, int rangePart, int low,
                           int high) {
        this.text = text;
        this.kind = kind;
        this.addresses = addresses;
        this.head = head;
        this.rangePart = rangePart;
        this.low = low;
        this.high = high;
    }

    /**
     * @param text the pattern as written (null or blank: matches nothing)
     * @return the pattern
     * @throws ConfigException naming the pattern when it is none of the accepted forms
     */
    public static AddressPattern parse(String text) {
        String pattern = text == null ? "" : text.trim();
        if (pattern.isEmpty()) {
            return new AddressPattern(pattern, Kind.NONE, Set.of(), "", 0, 0, 0);
        }
        if (pattern.equals("*") || pattern.equals("*.*.*.*") || pattern.equals("*:*:*:*:*:*:*:*")) {
            return new AddressPattern(pattern, Kind.ANY, Set.of(), "", 0, 0, 0);
        }
        if (pattern.endsWith("}")) {
            return braces(pattern);
        }
        if (pattern.contains(",")) {
            Set<String> set = new LinkedHashSet<>();
            for (String one : pattern.split(",")) {
                set.add(literal(one.trim(), pattern));
            }
            return new AddressPattern(pattern, Kind.SET, Set.copyOf(set), "", 0, 0, 0);
        }
        if (pattern.contains("*") || pattern.contains("-")) {
            return range(pattern);
        }
        return new AddressPattern(pattern, Kind.SET, Set.of(literal(pattern, pattern)), "", 0, 0, 0);
    }

    private static AddressPattern braces(String pattern) {
        int open = pattern.lastIndexOf('{');
        String prefix = open < 0 ? "" : pattern.substring(0, open);
        if (open < 0 || !prefix.endsWith(".") || prefix.split("\\.", -1).length != 4) {
            throw bad(pattern, "a {..} list must be the last of four IPv4 parts, e.g. 192.168.0.{1,2}");
        }
        Set<String> set = new LinkedHashSet<>();
        for (String last : pattern.substring(open + 1, pattern.length() - 1).split(",")) {
            set.add(literal(prefix + last.trim(), pattern));
        }
        return new AddressPattern(pattern, Kind.SET, Set.copyOf(set), "", 0, 0, 0);
    }

    private static AddressPattern range(String pattern) {
        String[] parts = pattern.split("\\.", -1);
        if (parts.length != 4) {
            throw bad(pattern, "wildcards and ranges are supported for IPv4 addresses of four parts only");
        }
        StringBuilder head = new StringBuilder();
        int index = 0;
        while (index < 4 && OCTET.matcher(parts[index].trim()).matches()) {
            head.append(parts[index].trim()).append('.');
            index++;
        }
        if (index == 0 || index == 4) {
            throw bad(pattern, "the first part must be a number and one later part '*' or a range like 1-10");
        }
        String variable = parts[index].trim();
        int low = 0;
        int high = 255;
        if (!variable.equals("*")) {
            String[] bounds = variable.split("-", -1);
            if (bounds.length != 2 || !OCTET.matcher(bounds[0]).matches() || !OCTET.matcher(bounds[1]).matches()) {
                throw bad(pattern, "'" + variable + "' is neither '*' nor a range like 1-10 within 0-255");
            }
            low = Integer.parseInt(bounds[0]);
            high = Integer.parseInt(bounds[1]);
            if (low > high) {
                throw bad(pattern, "range " + variable + " starts above its end");
            }
        }
        for (int i = index + 1; i < 4; i++) {
            if (!parts[i].trim().equals("*")) {
                throw bad(pattern, "every part after a wildcard or range must be '*'");
            }
        }
        return new AddressPattern(pattern, Kind.RANGE, Set.of(), head.toString(), index, low, high);
    }

    /** The canonical text of one IPv4 or IPv6 literal. */
    private static String literal(String address, String pattern) {
        if (address.contains(":")) {
            String canonical = ipv6(address);
            if (canonical == null) {
                throw bad(pattern, "'" + address + "' is not an IP address");
            }
            return canonical;
        }
        String[] parts = address.split("\\.", -1);
        if (parts.length != 4) {
            throw bad(pattern, "'" + address + "' is not an IP address");
        }
        StringBuilder canonical = new StringBuilder();
        for (String part : parts) {
            if (!OCTET.matcher(part).matches()) {
                throw bad(pattern, "'" + address + "' is not an IP address");
            }
            canonical.append(canonical.length() == 0 ? "" : ".").append(part);
        }
        return canonical.toString();
    }

    private static ConfigException bad(String pattern, String why) {
        return new ConfigException("address pattern '" + pattern + "' is not valid: " + why);
    }

    /**
     * @param address the client's IP address as text ({@code InetAddress#getHostAddress()}), or null
     * @return whether the pattern covers it
     */
    public boolean matches(String address) {
        if (address == null || address.isEmpty()) {
            return false;
        }
        return switch (kind) {
            case NONE -> false;
            case ANY -> true;
            case SET -> addresses.contains(address) || (address.contains(":") && addresses.contains(canonical(address)));
            case RANGE -> inRange(address);
        };
    }

    private boolean inRange(String address) {
        if (!address.startsWith(head)) {
            return false;
        }
        String[] parts = address.split("\\.", -1);
        if (parts.length != 4 || !OCTET.matcher(parts[rangePart]).matches()) {
            return false;
        }
        int value = Integer.parseInt(parts[rangePart]);
        return value >= low && value <= high;
    }

    private static String canonical(String address) {
        String canonical = ipv6(address);
        return canonical == null ? address : canonical;
    }

    /** The canonical text of an IPv6 literal, or null; never a name lookup (brackets force a literal). */
    private static String ipv6(String address) {
        if (!IPV6_CHARS.matcher(address).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName("[" + address + "]").getHostAddress();
        } catch (UnknownHostException | SecurityException | IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AddressPattern that && text.equals(that.text);
    }

    @Override
    public int hashCode() {
        return Objects.hash(text);
    }

    /** @return the pattern as written */
    @Override
    public String toString() {
        return text;
    }
}
