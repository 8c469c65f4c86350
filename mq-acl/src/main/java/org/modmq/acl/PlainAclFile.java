package org.modmq.acl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.modmq.api.config.ConfigException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads RocketMQ's {@code plain_acl.yml}:
 *
 * <pre>
 * globalWhiteRemoteAddresses:     # optional list of {@link AddressPattern}s
 *   - 10.10.103.*
 * accounts:
 *   - accessKey: RocketMQ         # at least 7 characters, unique
 *     secretKey: 12345678         # at least 7 characters
 *     whiteRemoteAddress:         # optional pattern
 *     admin: false
 *     defaultTopicPerm: DENY      # PUB, SUB, PUB|SUB or DENY; default DENY
 *     defaultGroupPerm: SUB       # default DENY
 *     topicPerms: [topicA=DENY, topicB=PUB|SUB]
 *     groupPerms: [groupA=DENY, groupB=SUB]
 * </pre>
 *
 * Only plain YAML is read (no tags, no object construction). Anything malformed is a
 * {@link ConfigException} naming the file and the entry; unknown keys are errors too, so that a
 * misspelt permission key is not silently ignored. Stateless and thread-safe.
 */
public final class PlainAclFile {

    /** Files larger than this are refused (a real one is a few KiB). */
    public static final int MAX_BYTES = 1 << 20;

    private static final int MIN_KEY_LENGTH = 7;
    private static final Set<String> TOP_KEYS = Set.of("globalWhiteRemoteAddresses", "accounts",
            "dataVersion");
    private static final Set<String> ACCOUNT_KEYS = Set.of("accessKey", "secretKey", "whiteRemoteAddress", "admin",
            "defaultTopicPerm", "defaultGroupPerm", "topicPerms", "groupPerms");

    private PlainAclFile() {
    }

    /**
     * Reads and parses {@code file}.
     *
     * @throws ConfigException when it cannot be read or does not parse
     */
    public static AclRules read(Path file) {
        return parse(readBytes(file), file.toString());
    }

    /** @return the file's bytes; @throws ConfigException when missing, unreadable or too large */
    static byte[] readBytes(Path file) {
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new ConfigException("ACL file " + file + " has " + size + " bytes, more than " + MAX_BYTES);
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConfigException("cannot read ACL file " + file + ": " + e);
        }
    }

    /**
     * @param content the file's bytes (UTF-8)
     * @param source names the file in errors
     * @throws ConfigException when it does not parse
     */
    public static AclRules parse(byte[] content, String source) {
        Object root;
        try {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(new String(content, StandardCharsets.UTF_8));
        } catch (YAMLException e) {
            throw new ConfigException("ACL file " + source + " is not valid YAML: " + e.getMessage());
        }
        if (root == null) {
            throw new ConfigException("ACL file " + source + " is empty");
        }
        if (!(root instanceof Map<?, ?> top)) {
            throw new ConfigException("ACL file " + source + " must be a mapping with 'accounts'");
        }
        for (Object key : top.keySet()) {
            if (!TOP_KEYS.contains(String.valueOf(key))) {
                throw new ConfigException("ACL file " + source + ": unknown key '" + key + "'; known keys: "
                        + "globalWhiteRemoteAddresses, accounts");
            }
        }
        List<AddressPattern> white = new ArrayList<>();
        for (String pattern : strings(top.get("globalWhiteRemoteAddresses"), source + ": globalWhiteRemoteAddresses")) {
            white.add(pattern(pattern, source + ": globalWhiteRemoteAddresses"));
        }
        Map<String, AclAccount> accounts = new LinkedHashMap<>();
        Object list = top.get("accounts");
        if (list != null && !(list instanceof List<?>)) {
            throw new ConfigException("ACL file " + source + ": 'accounts' must be a list");
        }
        int index = 0;
        for (Object entry : list == null ? List.of() : (List<?>) list) {
            AclAccount account = account(entry, source + ": accounts[" + index++ + "]");
            if (accounts.putIfAbsent(account.accessKey(), account) != null) {
                throw new ConfigException("ACL file " + source + ": accessKey " + account.accessKey()
                        + " appears twice");
            }
        }
        return new AclRules(white, accounts);
    }

    private static AclAccount account(Object entry, String where) {
        if (!(entry instanceof Map<?, ?> map)) {
            throw new ConfigException(where + " must be a mapping");
        }
        for (Object key : map.keySet()) {
            if (!ACCOUNT_KEYS.contains(String.valueOf(key))) {
                throw new ConfigException(where + ": unknown key '" + key + "'; known keys: " + ACCOUNT_KEYS);
            }
        }
        String accessKey = scalar(map.get("accessKey"));
        String secretKey = scalar(map.get("secretKey"));
        if (accessKey.length() < MIN_KEY_LENGTH || secretKey.length() < MIN_KEY_LENGTH) {
            throw new ConfigException(where + ": accessKey and secretKey must each have at least " + MIN_KEY_LENGTH
                    + " characters (accessKey '" + accessKey + "')");
        }
        where = where + " (accessKey " + accessKey + ")";
        AddressPattern white = pattern(scalar(map.get("whiteRemoteAddress")), where + ": whiteRemoteAddress");
        String admin = scalar(map.get("admin")).toLowerCase(Locale.ROOT);
        if (!admin.isEmpty() && !admin.equals("true") && !admin.equals("false")) {
            throw new ConfigException(where + ": admin is '" + admin + "': expected true or false");
        }
        byte defaultTopic = perm(map.get("defaultTopicPerm"), where + ": defaultTopicPerm");
        byte defaultGroup = perm(map.get("defaultGroupPerm"), where + ": defaultGroupPerm");
        Map<String, Byte> resources = new LinkedHashMap<>();
        for (String item : strings(map.get("topicPerms"), where + ": topicPerms")) {
            String[] pair = resourcePerm(item, where + ": topicPerms");
            resources.put(pair[0], AclPermission.parse(pair[1], where + ": topicPerms " + item));
        }
        for (String item : strings(map.get("groupPerms"), where + ": groupPerms")) {
            String[] pair = resourcePerm(item, where + ": groupPerms");
            resources.put(RequiredAccess.retryTopic(pair[0]), AclPermission.parse(pair[1], where + ": groupPerms " + item));
        }
        return new AclAccount(accessKey, secretKey, white, admin.equals("true"), defaultTopic, defaultGroup,
                resources);
    }

    private static byte perm(Object value, String where) {
        String text = scalar(value);
        return text.isEmpty() ? AclPermission.DENY : AclPermission.parse(text, where);
    }

    private static String[] resourcePerm(String item, String where) {
        int eq = item.indexOf('=');
        if (eq <= 0 || eq == item.length() - 1 || item.indexOf('=', eq + 1) >= 0) {
            throw new ConfigException(where + ": '" + item + "' is not of the form name=PERM, e.g. topicA=SUB");
        }
        return new String[] {item.substring(0, eq).trim(), item.substring(eq + 1).trim()};
    }

    private static AddressPattern pattern(String text, String where) {
        try {
            return AddressPattern.parse(text);
        } catch (ConfigException e) {
            throw new ConfigException(where + ": " + e.getMessage());
        }
    }

    /** A scalar as text; YAML may have read {@code 12345678} as a number or {@code true} as a boolean. */
    private static String scalar(Object value) {
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            throw new ConfigException("expected a single value, got " + value);
        }
        return value == null ? "" : String.valueOf(value).trim();
    }

    private static List<String> strings(Object value, String where) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw new ConfigException(where + " must be a list");
        }
        List<String> result = new ArrayList<>();
        for (Object item : list) {
            if (item != null && !String.valueOf(item).isBlank()) {
                result.add(scalar(item));
            }
        }
        return result;
    }
}
