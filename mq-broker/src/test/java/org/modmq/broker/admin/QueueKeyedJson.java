package org.modmq.broker.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import org.modmq.broker.admin.AdminBodies.MessageQueue;
import org.modmq.remoting.protocol.Json;

/**
 * Reads bodies holding fastjson's object-valued map keys with Jackson, for assertions: each such key is
 * turned into a string key holding its JSON text, so {@code path(key(queue))} finds the entry.
 */
final class QueueKeyedJson {

    private QueueKeyedJson() {
    }

    static JsonNode tree(byte[] body) {
        return Json.tree(quoteObjectKeys(new String(body, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
    }

    /** The key {@link #tree} gives the entry of {@code queue}. */
    static String key(MessageQueue queue) {
        return new String(Json.encode(queue), StandardCharsets.UTF_8);
    }

    static String quoteObjectKeys(String json) {
        StringBuilder out = new StringBuilder(json.length() + 64);
        Deque<Character> containers = new ArrayDeque<>();
        boolean keyNext = false;
        int i = 0;
        while (i < json.length()) {
            char c = json.charAt(i);
            if (c == '"') {
                int end = stringEnd(json, i);
                out.append(json, i, end);
                i = end;
                keyNext = false;
                continue;
            }
            if (keyNext && c == '{') {
                int end = objectEnd(json, i);
                out.append('"').append(json.substring(i, end).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
                i = end;
                keyNext = false;
                continue;
            }
            if (c == '{' || c == '[') {
                containers.push(c);
                keyNext = c == '{';
            } else if (c == '}' || c == ']') {
                containers.pop();
                keyNext = false;
            } else if (c == ',') {
                keyNext = !containers.isEmpty() && containers.peek() == '{';
            } else if (!Character.isWhitespace(c)) {
                keyNext = false;
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    private static int stringEnd(String json, int start) {
        int j = start + 1;
        while (json.charAt(j) != '"') {
            j += json.charAt(j) == '\\' ? 2 : 1;
        }
        return j + 1;
    }

    private static int objectEnd(String json, int start) {
        int depth = 0;
        int j = start;
        while (true) {
            char c = json.charAt(j);
            if (c == '"') {
                j = stringEnd(json, j);
                continue;
            }
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return j + 1;
            }
            j++;
        }
    }
}
