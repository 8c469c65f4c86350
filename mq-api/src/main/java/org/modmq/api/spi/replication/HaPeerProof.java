package org.modmq.api.spi.replication;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.modmq.api.config.ConfigException;

/**
 * Mutual authentication of the two ends of an HA connection with a shared secret ({@code haAuthSecret}),
 * run before the first byte of the strategy's own protocol, inside TLS when that is on. The accepting side
 * (the master's HA port) speaks first, so that a peer that does not know the exchange learns nothing but a
 * random nonce:
 *
 * <pre>
 * acceptor -&gt; dialer   CHALLENGE  "MQHA" | version 1 | nonceA (32 bytes)                       37 bytes
 * dialer   -&gt; acceptor PROOF      nonceD (32 bytes) | HMAC(secret, "dialer"   | strategy | nonceA | nonceD)  64 bytes
 * acceptor -&gt; dialer   ANSWER     HMAC(secret, "acceptor" | strategy | nonceA | nonceD)           32 bytes
 * </pre>
 *
 * <p>HMAC is HmacSHA256 keyed with the secret's UTF-8 bytes; the secret never crosses the wire. Each side's
 * fresh nonce stops replay towards it: a recorded proof is for another nonceA, a recorded answer for another
 * nonceD. The role labels stop a proof from being reflected back as an answer, the strategy name a proof of
 * one protocol from being used with the other. The exchange authenticates who is at the other end when the
 * connection starts; it does not protect the bytes after it from a peer on the path (TLS does that).
 *
 * <p>Byte layouts and checks only, no I/O: each strategy's transport moves the bytes. Immutable and
 * thread-safe; the {@link Acceptor} and {@link Dialer} are one connection's and not thread-safe.
 */
public final class HaPeerProof {

    /** The config key both bundled strategies declare. */
    public static final String KEY = "haAuthSecret";
    /** Shortest secret accepted, in characters. */
    public static final int MIN_SECRET_LENGTH = 16;
    public static final int NONCE_BYTES = 32;
    public static final int MAC_BYTES = 32;
    public static final int CHALLENGE_BYTES = 4 + 1 + NONCE_BYTES;
    public static final int PROOF_BYTES = NONCE_BYTES + MAC_BYTES;
    public static final int ANSWER_BYTES = MAC_BYTES;

    private static final byte[] MAGIC = {'M', 'Q', 'H', 'A'};
    private static final byte VERSION = 1;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;
    private final byte[] strategy;

    private HaPeerProof(String secret, String strategy) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
        this.strategy = strategy.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The proof for {@code secret}, empty when it is absent or blank (authentication off).
     *
     * @param strategy the strategy's provider name, bound into every MAC
     * @throws ConfigException naming {@link #KEY} when the secret is shorter than {@link #MIN_SECRET_LENGTH}
     */
    public static Optional<HaPeerProof> of(Optional<String> secret, String strategy) {
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(strategy, "strategy");
        Optional<String> set = secret.map(String::trim).filter(s -> !s.isEmpty());
        if (set.isEmpty()) {
            return Optional.empty();
        }
        if (set.get().length() < MIN_SECRET_LENGTH) {
            throw new ConfigException(KEY + " is too short: " + set.get().length() + " characters, expected at least "
                    + MIN_SECRET_LENGTH + " (the value is not shown)");
        }
        return Optional.of(new HaPeerProof(set.get(), strategy));
    }

    /** The accepting side of one new connection, with a fresh nonce. */
    public Acceptor acceptor() {
        return new Acceptor(nonce());
    }

    /** The dialing side of one new connection, with a fresh nonce. */
    public Dialer dialer() {
        return new Dialer(nonce());
    }

    @Override
    public String toString() {
        return "HaPeerProof[" + new String(strategy, StandardCharsets.UTF_8) + ", secret not shown]";
    }

    private static byte[] nonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    private byte[] mac(String role, byte[] nonceA, byte[] nonceD) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(role.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            mac.update(strategy);
            mac.update((byte) 0);
            mac.update(nonceA);
            mac.update(nonceD);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JDK", e);
        }
    }

    /** The accepting side: sends {@link #challenge()}, checks the dialer's proof, answers it. */
    public final class Acceptor {

        private final byte[] nonceA;

        private Acceptor(byte[] nonceA) {
            this.nonceA = nonceA;
        }

        /** The {@link #CHALLENGE_BYTES} to send first. */
        public byte[] challenge() {
            byte[] out = new byte[CHALLENGE_BYTES];
            System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
            out[MAGIC.length] = VERSION;
            System.arraycopy(nonceA, 0, out, MAGIC.length + 1, NONCE_BYTES);
            return out;
        }

        /**
         * @param proof the dialer's {@link #PROOF_BYTES}
         * @return the {@link #ANSWER_BYTES} to send back when the proof is right; empty when it is not
         */
        public Optional<byte[]> verify(byte[] proof) {
            if (proof.length != PROOF_BYTES) {
                return Optional.empty();
            }
            byte[] nonceD = Arrays.copyOfRange(proof, 0, NONCE_BYTES);
            byte[] expected = mac("dialer", nonceA, nonceD);
            if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(proof, NONCE_BYTES, PROOF_BYTES))) {
                return Optional.empty();
            }
            return Optional.of(mac("acceptor", nonceA, nonceD));
        }
    }

    /** The dialing side: answers the challenge with its proof, then checks the acceptor's answer. */
    public final class Dialer {

        private final byte[] nonceD;
        private byte[] nonceA;

        private Dialer(byte[] nonceD) {
            this.nonceD = nonceD;
        }

        /**
         * @param challenge the acceptor's first {@link #CHALLENGE_BYTES}
         * @return the {@link #PROOF_BYTES} to send; empty when the bytes are not a challenge (the peer does
         *     not run this exchange, or another version of it)
         */
        public Optional<byte[]> prove(byte[] challenge) {
            if (challenge.length != CHALLENGE_BYTES
                    || !Arrays.equals(challenge, 0, MAGIC.length, MAGIC, 0, MAGIC.length)
                    || challenge[MAGIC.length] != VERSION) {
                return Optional.empty();
            }
            nonceA = Arrays.copyOfRange(challenge, MAGIC.length + 1, CHALLENGE_BYTES);
            byte[] out = new byte[PROOF_BYTES];
            System.arraycopy(nonceD, 0, out, 0, NONCE_BYTES);
            System.arraycopy(mac("dialer", nonceA, nonceD), 0, out, NONCE_BYTES, MAC_BYTES);
            return Optional.of(out);
        }

        /** Whether {@code answer} proves the acceptor knows the secret; false before {@link #prove}. */
        public boolean verify(byte[] answer) {
            return nonceA != null && answer.length == ANSWER_BYTES
                    && MessageDigest.isEqual(mac("acceptor", nonceA, nonceD), answer);
        }
    }
}
