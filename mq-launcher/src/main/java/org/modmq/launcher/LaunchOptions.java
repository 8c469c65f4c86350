package org.modmq.launcher;

import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The launchers' common arguments: {@code -c FILE}, {@code -p} (print the settings and exit),
 * {@code -h} (print the usage and exit).
 *
 * @param file  the {@code -c} file, or null
 * @param print {@code -p}
 * @param help  {@code -h}
 */
record LaunchOptions(Path file, boolean print, boolean help) {

    private static final Logger LOG = LoggerFactory.getLogger(LaunchOptions.class);

    /** @return the options, or null (after logging why, with {@code usage}) when they are wrong */
    static LaunchOptions parse(String[] args, String usage) {
        Path file = null;
        boolean print = false;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-c" -> {
                    if (i + 1 >= args.length) {
                        LOG.error("-c needs a file; {}", usage);
                        return null;
                    }
                    file = Path.of(args[++i]);
                }
                case "-p" -> print = true;
                case "-h" -> help = true;
                default -> {
                    LOG.error("unknown argument '{}'; {}", args[i], usage);
                    return null;
                }
            }
        }
        return new LaunchOptions(file, print, help);
    }
}
