package org.modmq.remoting.netty;

import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLException;
import org.modmq.api.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the files of a server's TLS context ({@code tls.server.certPath}, {@code tls.server.keyPath} and
 * {@code tls.server.trustCertPath} when set) and, when their content changed, builds a new context from
 * them and hands it on; connections accepted from then on use it, established ones keep theirs. A new set
 * of files that does not build, or whose certificate and key fail an in-memory handshake
 * ({@link TlsContextProbe}: a key that does not match its certificate), or a half-written or missing
 * file, keeps the context in force and is logged once; the next change is tried again, so a certificate
 * and key replaced one after the other are taken once both are in place.
 *
 * <p>Each {@link #doWork()} does nothing until {@code interval} has passed on the clock since the last
 * look; then it reads the files (they are small) and compares their SHA-256 digests with those of the
 * files the context in force was built from, so a rewrite within the file system's timestamp granularity
 * is not missed. {@link RemotingServer} steps it every second on its acceptor thread; tests step it with
 * a manual clock.
 *
 * <p>Threading: {@link #doWork()} is synchronized (several ports may share one {@link ServerTls});
 * {@link #state()} and {@link #reloads()} from any thread.
 */
public final class TlsReloadAgent {

    private static final Logger LOG = LoggerFactory.getLogger(TlsReloadAgent.class);

    /** Whether the context in force is built from the files as they are now. */
    public enum State {
        /** The context in force is the files' content. */
        CURRENT,
        /** The files changed into something that does not build; the previous context stays in force. */
        REJECTED
    }

    private final TlsSettings settings;
    private final Consumer<SslContext> install;
    private final LongSupplier monotonicMillis;
    private final long intervalMillis;
    private final List<Path> files;
    private List<String> lastSeen;
    private long lastLook;
    private volatile State state = State.CURRENT;
    private volatile long reloads;

    /**
     * @param settings        the server keys the context is built from
     * @param loadedFrom      {@link #digests} of the files taken before the context in force was built
     * @param install         takes each new context
     * @param monotonicMillis the clock the interval is measured on
     */
    TlsReloadAgent(TlsSettings settings, List<String> loadedFrom, Consumer<SslContext> install,
                   LongSupplier monotonicMillis) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.install = Objects.requireNonNull(install, "install");
        this.monotonicMillis = Objects.requireNonNull(monotonicMillis, "monotonicMillis");
        if (settings.reloadIntervalSeconds() <= 0) {
            throw new IllegalArgumentException(TlsSettings.RELOAD_INTERVAL_SECONDS + " is off");
        }
        this.intervalMillis = settings.reloadIntervalSeconds() * 1000;
        this.files = watched(settings);
        this.lastSeen = List.copyOf(loadedFrom);
        this.lastLook = monotonicMillis.getAsLong();
    }

    /** @return the files a server context built from {@code settings} is read from */
    static List<Path> watched(TlsSettings settings) {
        List<Path> paths = new ArrayList<>();
        for (String path : new String[] {settings.serverCertPath(), settings.serverKeyPath(),
                settings.serverAuthClient() ? settings.serverTrustCertPath() : null}) {
            if (path != null) {
                paths.add(Path.of(path));
            }
        }
        return List.copyOf(paths);
    }

    /** @return one digest per file of {@code paths}, in order; a file that cannot be read has a marker instead */
    static List<String> digests(List<Path> paths) {
        List<String> digests = new ArrayList<>(paths.size());
        for (Path path : paths) {
            try {
                digests.add(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(path))));
            } catch (NoSuchFileException e) {
                digests.add("missing");
            } catch (IOException e) {
                digests.add("unreadable: " + e.getMessage());
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("the JDK has no SHA-256", e);
            }
        }
        return digests;
    }

    /** @return 1 when the files were looked at and had changed (whether or not the new context built), else 0 */
    public synchronized int doWork() {
        long now = monotonicMillis.getAsLong();
        if (now - lastLook < intervalMillis) {
            return 0;
        }
        lastLook = now;
        List<String> seen = digests(files);
        if (seen.equals(lastSeen)) {
            return 0;
        }
        lastSeen = seen;
        try {
            SslContext next = TlsContexts.server(settings);
            if (next == null) {
                throw new ConfigException("no server certificate is configured");
            }
            // A context builds from a key that does not belong to the certificate; only a handshake tells.
            TlsContextProbe.handshake(TlsContexts.serverIdentity(settings));
            install.accept(next);
            reloads++;
            transition(State.CURRENT, "new connections use the certificate now in " + settings.serverCertPath());
        } catch (ConfigException e) {
            transition(State.REJECTED, e.getMessage() + "; new connections keep the previous certificate");
        } catch (SSLException e) {
            transition(State.REJECTED, "a handshake with " + TlsSettings.SERVER_CERT_PATH + "=" + settings.serverCertPath()
                    + " and " + TlsSettings.SERVER_KEY_PATH + "=" + settings.serverKeyPath() + " fails (" + e.getMessage()
                    + "); new connections keep the previous certificate");
        }
        return 1;
    }

    private void transition(State next, String reason) {
        State previous = state;
        state = next;
        if (next == State.REJECTED) {
            LOG.warn("TLS certificate reload {} -> {}: {}", previous, next, reason);
        } else {
            LOG.info("TLS certificate reload {} -> {}: {}", previous, next, reason);
        }
    }

    /** @return whether the context in force matches the files */
    public State state() {
        return state;
    }

    /** @return how many new contexts were put in force */
    public long reloads() {
        return reloads;
    }

    /** @return seconds between two looks at the files */
    public long intervalSeconds() {
        return intervalMillis / 1000;
    }

    /** @return the files watched */
    public List<Path> files() {
        return files;
    }
}
