package org.modmq.testkit.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Throw-away TLS identities for tests, made when a test asks for them, so no private key is ever
 * committed: the JDK's {@code keytool} makes a self-signed P-256 certificate per identity (valid two days,
 * subject alternative names {@code 127.0.0.1} and {@code localhost}), and each is written as the PEM files
 * modmq and RocketMQ read: the certificate, and the private key as unencrypted PKCS#8. A self-signed
 * certificate is its own trust anchor, so a peer trusts an identity by naming its certificate file as
 * trust file. Plain JDK. Immutable; {@link #create} runs three {@code keytool} processes at once (about a
 * second on an idle machine).
 *
 * @param server the identity of a server port
 * @param client an identity a client presents, trusted by tests that check client certificates
 * @param stranger an identity nobody trusts
 */
public record TestCertificates(Identity server, Identity client, Identity stranger) {

    /** Password of every {@link Identity#keyStore()} and of the key in it. */
    public static final String KEY_STORE_PASSWORD = "modmq-test";
    private static final String PASSWORD = KEY_STORE_PASSWORD;
    private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

    public TestCertificates {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(stranger, "stranger");
    }

    /**
     * Makes the three identities under {@code dir} (created if needed).
     *
     * @throws AssertionError when {@code keytool} fails or does not finish within a minute
     * @throws UncheckedIOException when a file cannot be written
     */
    public static TestCertificates create(Path dir) {
        Objects.requireNonNull(dir, "dir");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        // Three keytool JVMs at once: each is mostly JVM start-up, so together they take about as long as one.
        List<String> names = List.of("server", "client", "stranger");
        List<Process> running = new ArrayList<>();
        for (String name : names) {
            running.add(startKeytool(dir, name));
        }
        for (int i = 0; i < names.size(); i++) {
            awaitKeytool(running.get(i), dir, names.get(i));
        }
        return new TestCertificates(identity(dir, "server"), identity(dir, "client"), identity(dir, "stranger"));
    }

    private static Process startKeytool(Path dir, String name) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        // The client compiler alone: keytool runs for a moment, and on a busy machine C2 costs more than it saves.
        command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        command.addAll(List.of("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1",
                "-sigalg", "SHA256withECDSA", "-dname", "CN=modmq-test-" + name, "-validity", "2",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", dir.resolve(name + ".p12").toString(), "-storepass", PASSWORD, "-keypass", PASSWORD));
        try {
            return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("keytool-" + name + ".out").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run keytool", e);
        }
    }

    private static void awaitKeytool(Process process, Path dir, String name) {
        try {
            if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("keytool did not make " + name + " within " + KEYTOOL_TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new AssertionError("keytool failed (" + process.exitValue() + ") making " + name + ":\n"
                        + Files.readString(dir.resolve("keytool-" + name + ".out")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read keytool's output", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while keytool ran", e);
        }
    }

    /** Writes the PEM files of the key store keytool made for {@code name}. */
    private static Identity identity(Path dir, String name) {
        Path store = dir.resolve(name + ".p12");
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, PASSWORD.toCharArray());
            Certificate certificate = keys.getCertificate(name);
            Key key = keys.getKey(name, PASSWORD.toCharArray());
            Path certFile = dir.resolve(name + ".crt.pem");
            Path keyFile = dir.resolve(name + ".key.pem");
            Files.writeString(certFile, pem("CERTIFICATE", certificate.getEncoded()), StandardCharsets.US_ASCII);
            Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
            return new Identity(certFile, keyFile, store);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the PEM files of " + name + " under " + dir, e);
        } catch (GeneralSecurityException e) {
            throw new AssertionError("cannot read the key store keytool wrote: " + store, e);
        }
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    /**
     * One identity's PEM files.
     *
     * @param certificate the X.509 certificate (also what a peer names as trust file)
     * @param privateKey the unencrypted PKCS#8 private key
     * @param keyStore the same key and certificate as a PKCS12 key store ({@link #KEY_STORE_PASSWORD}), for
     *     tests that build a JDK {@code SSLContext} themselves
     */
    public record Identity(Path certificate, Path privateKey, Path keyStore) {

        public Identity {
            Objects.requireNonNull(certificate, "certificate");
            Objects.requireNonNull(privateKey, "privateKey");
            Objects.requireNonNull(keyStore, "keyStore");
        }
    }
}
