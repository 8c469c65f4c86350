package org.modmq.testkit.process;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How to start one {@link ChildProcess}: the command, run in {@code workDir} with {@code environment} added
 * to this JVM's environment (minus {@link ChildProcess#CLEARED_ENVIRONMENT}), and the port on
 * 127.0.0.1 whose accepting means "started".
 *
 * @param name        label for failure messages and {@link ChildProcess#toString()}; also names the output
 *                    file {@code workDir/name.out}
 * @param command     the program and its arguments
 * @param environment variables set for the child, over the inherited ones
 * @param workDir     the child's working directory, which also receives its output file
 * @param port        the port on 127.0.0.1 the child listens on once started
 */
public record ProcessSpec(String name, List<String> command, Map<String, String> environment, Path workDir,
                          int port) {

    public ProcessSpec {
        Objects.requireNonNull(name, "name");
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
        Objects.requireNonNull(workDir, "workDir");
        if (command.isEmpty()) {
            throw new IllegalArgumentException("command is empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /** The file that receives the child's stdout and stderr, appended across restarts. */
    public Path outputFile() {
        return workDir.resolve(name + ".out");
    }
}
