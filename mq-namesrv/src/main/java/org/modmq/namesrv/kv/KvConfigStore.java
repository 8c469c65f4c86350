package org.modmq.namesrv.kv;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.channels.FileChannel;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.modmq.namesrv.body.KvConfigSnapshot;
import org.modmq.remoting.protocol.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The name server's KV configuration: namespace → key → value. When a file is given, the whole
 * table is loaded from it at construction and rewritten after each change (write a temporary file,
 * force it, rename over the old one), as {@code {"configTable":{...}}}. Thread-safe: every method is
 * synchronized; answers are copies.
 */
public final class KvConfigStore {

    private static final Logger LOG = LoggerFactory.getLogger(KvConfigStore.class);

    private final Path file;
    private final Map<String, Map<String, String>> table = new TreeMap<>();

    /**
     * @param file where to persist, or null to keep the table in memory only
     * @throws UncheckedIOException if the file exists but cannot be read
     * @throws org.modmq.remoting.protocol.JsonBodyException if the file is not valid JSON
     */
    public KvConfigStore(Path file) {
        this.file = file;
        if (file != null && Files.exists(file)) {
            try {
                KvConfigSnapshot snapshot = Json.decode(Files.readAllBytes(file), KvConfigSnapshot.class);
                if (snapshot.configTable() != null) {
                    snapshot.configTable().forEach((ns, kv) -> table.put(ns, new TreeMap<>(kv)));
                }
                LOG.info("loaded {} KV namespace(s) from {}", table.size(), file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read KV config " + file, e);
            }
        }
    }

    /** Sets a value. */
    public synchronized void put(String namespace, String key, String value) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        String old = table.computeIfAbsent(namespace, ns -> new TreeMap<>()).put(key, value);
        LOG.info("KV {}:{} = {} (was {})", namespace, key, value, old);
        persist();
    }

    /**
     * Sets a value unless that would make the table hold more than {@code maxEntries} pairs (replacing a
     * value is always allowed).
     *
     * @return whether the value was set
     */
    public synchronized boolean putBounded(String namespace, String key, String value, int maxEntries) {
        Map<String, String> kv = table.get(namespace);
        boolean replaces = kv != null && kv.containsKey(key);
        if (!replaces && size() >= maxEntries) {
            return false;
        }
        put(namespace, key, value);
        return true;
    }

    /** The number of pairs over all namespaces. */
    public synchronized int size() {
        int size = 0;
        for (Map<String, String> kv : table.values()) {
            size += kv.size();
        }
        return size;
    }

    /** A value, if present. */
    public synchronized Optional<String> get(String namespace, String key) {
        Map<String, String> kv = table.get(namespace);
        return Optional.ofNullable(kv == null ? null : kv.get(key));
    }

    /** Removes a value; a namespace left empty disappears. */
    public synchronized void delete(String namespace, String key) {
        Map<String, String> kv = table.get(namespace);
        if (kv != null && kv.remove(key) != null) {
            if (kv.isEmpty()) {
                table.remove(namespace);
            }
            LOG.info("KV {}:{} deleted", namespace, key);
            persist();
        }
    }

    /** Every pair of a namespace, if it exists. */
    public synchronized Optional<Map<String, String>> namespace(String namespace) {
        Map<String, String> kv = table.get(namespace);
        return Optional.ofNullable(kv == null ? null : new TreeMap<>(kv));
    }

    private void persist() {
        if (file == null) {
            return;
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.write(tmp, Json.encode(new KvConfigSnapshot(table)));
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write KV config " + file, e);
        }
    }
}
