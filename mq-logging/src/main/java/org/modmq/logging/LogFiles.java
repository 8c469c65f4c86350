package org.modmq.logging;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Where a process logs: {@code <dir>/<name>.log}, rolled to {@code <dir>/<name>.<day>.<n>.log}. The
 * directory and name come from {@code modmq.log.dir} (default {@code logs}) and {@code modmq.log.name}
 * (default {@code modmq}), as the launchers set them.
 */
record LogFiles(Path dir, String name) {

    static final String DIR_PROPERTY = "modmq.log.dir";
    static final String NAME_PROPERTY = "modmq.log.name";

    LogFiles {
        if (name.isBlank() || name.contains("/") || name.contains("%")) {
            throw new IllegalArgumentException("log name '" + name + "' is not a plain file name");
        }
        // logback reads '%' in a rolling file name as a conversion word, and no escape gets it through.
        if (dir.toString().contains("%")) {
            throw new IllegalArgumentException("log directory '" + dir + "' contains '%', which logback cannot"
                    + " take in a rolled file's name");
        }
    }

    static LogFiles from(UnaryOperator<String> properties) {
        String dir = Objects.requireNonNullElse(properties.apply(DIR_PROPERTY), "");
        String name = Objects.requireNonNullElse(properties.apply(NAME_PROPERTY), "");
        return new LogFiles(Path.of(dir.isBlank() ? "logs" : dir), name.isBlank() ? "modmq" : name);
    }

    String activeFile() {
        return dir.resolve(name + ".log").toString();
    }

    String rolledPattern() {
        return dir.resolve(name).toString() + ".%d{yyyy-MM-dd}.%i.log";
    }
}
