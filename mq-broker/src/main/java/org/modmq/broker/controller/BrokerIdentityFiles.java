package org.modmq.broker.controller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Optional;

/**
 * The broker-id files of controller mode, in RocketMQ's formats (UTF-8, one line, no line end):
 *
 * <pre>
 * &lt;storePathBrokerIdentity&gt;        clusterName#brokerName#brokerId                  the id the controller assigned
 * &lt;storePathBrokerIdentity&gt;-temp   clusterName#brokerName#brokerId#registerCheckCode an id being applied for
 * </pre>
 *
 * <p>{@code registerCheckCode} is {@code brokerAddress;millis}. Each file is written to a temporary file,
 * forced and renamed, so a crash leaves the old content or the new. Thread-safe (synchronized).
 */
final class BrokerIdentityFiles {

    /** An assigned (or applied-for) id. */
    record Identity(String clusterName, String brokerName, long brokerId, String registerCheckCode) {
    }

    private final Path file;
    private final Path temp;

    BrokerIdentityFiles(Path file) {
        this.file = Objects.requireNonNull(file, "file");
        this.temp = file.resolveSibling(file.getFileName() + "-temp");
    }

    Path file() {
        return file;
    }

    /** The assigned id, if the file holds one. */
    synchronized Optional<Identity> assigned() {
        return read(file, 3);
    }

    /** The id being applied for, if the temp file holds one. */
    synchronized Optional<Identity> applying() {
        return read(temp, 4);
    }

    synchronized void writeApplying(Identity identity) {
        write(temp, identity.clusterName() + "#" + identity.brokerName() + "#" + identity.brokerId() + "#"
                + identity.registerCheckCode());
    }

    /** Records the id as assigned and removes the temp file. */
    synchronized void writeAssigned(Identity identity) {
        write(file, identity.clusterName() + "#" + identity.brokerName() + "#" + identity.brokerId());
        clearApplying();
    }

    synchronized void clearApplying() {
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + temp, e);
        }
    }

    private static Optional<Identity> read(Path path, int fields) {
        if (!Files.exists(path)) {
            return Optional.empty();
        }
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
        String[] parts = text.split("#", fields);
        if (parts.length < fields || parts[0].isEmpty() || parts[1].isEmpty()) {
            throw new IllegalStateException(path + " does not hold clusterName#brokerName#brokerId"
                    + (fields == 4 ? "#registerCheckCode" : "") + ": '" + text + "'");
        }
        try {
            return Optional.of(new Identity(parts[0], parts[1], Long.parseLong(parts[2].trim()),
                    fields == 4 ? parts[3] : null));
        } catch (NumberFormatException e) {
            throw new IllegalStateException(path + " holds a broker id that is not a number: '" + parts[2] + "'", e);
        }
    }

    private static void write(Path path, String content) {
        Path scratch = path.resolveSibling(path.getFileName() + ".tmp");
        try {
            Files.createDirectories(path.toAbsolutePath().getParent());
            try (FileChannel channel = FileChannel.open(scratch, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(java.nio.ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8)));
                channel.force(true);
            }
            Files.move(scratch, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }
}
