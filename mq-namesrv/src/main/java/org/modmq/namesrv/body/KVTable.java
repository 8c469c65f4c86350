package org.modmq.namesrv.body;

import java.util.Map;

/**
 * Key-value pairs of one namespace.
 *
 * @param table key to value
 */
public record KVTable(Map<String, String> table) {
}
