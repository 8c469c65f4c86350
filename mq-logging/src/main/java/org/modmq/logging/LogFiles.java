package org.modmq.logging;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where a process logs: {@code <dir>/<name>.log}, rolled to {@code <dir>/<name>.<day>.<n>.log}. The
 * directory and name come from {@code modmq.log.dir} and {@code modmq.log.name} (default
 * {@code modmq}), as the launchers set them.
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

    /**
     * The files named by the launchers' properties, or empty when {@code modmq.log.dir} is not set: a
     * process started some other way (embedded, a test loading the jars) logs to stdout only rather than
     * create {@code logs/} in whatever directory it runs in.
     */
    static Optional<LogFiles> from(UnaryOperator<String> properties) {
        String dir = Objects.requireNonNullElse(properties.apply(DIR_PROPERTY), "");
        String name = Objects.requireNonNullElse(properties.apply(NAME_PROPERTY), "");
        if (dir.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new LogFiles(Path.of(dir), name.isBlank() ? "modmq" : name));
    }

    String activeFile() {
        return dir.resolve(name + ".log").toString();
    }

    String rolledPattern() {
        return dir.resolve(name).toString() + ".%d{yyyy-MM-dd}.%i.log";
    }
}
