package org.modmq.store.direct;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens a file for direct I/O. The one seam between this backend and the operating system's O_DIRECT
 * support, so that tests can simulate a file system that refuses it. Thread-safe.
 */
@FunctionalInterface
interface ChannelOpener {

    /** Opens with {@link ExtendedOpenOption#DIRECT} added to {@code options}. */
    ChannelOpener DIRECT = (file, options) -> {
        List<OpenOption> all = new ArrayList<>(List.of(options));
        all.add(ExtendedOpenOption.DIRECT);
        return FileChannel.open(file, all.toArray(OpenOption[]::new));
    };

    /**
     * Opens {@code file} for direct I/O.
     *
     * @throws IOException when the file cannot be opened, including when the file system refuses O_DIRECT
     * @throws UnsupportedOperationException when the JDK's file system provider has no O_DIRECT
     */
    FileChannel open(Path file, OpenOption... options) throws IOException;
}
