package org.modmq.namesrv.body;

import java.util.Map;

/**
 * The persisted form of the name server's KV configuration: {@code {"configTable":{ns:{k:v}}}}.
 *
 * @param configTable namespace to key to value
 */
public record KvConfigSnapshot(Map<String, Map<String, String>> configTable) {
}
