package org.modmq.api.spi.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.modmq.api.config.ConfigException;

class HaPeerProofTest {

    private static final String SECRET = "sixteen-or-more-chars";

    private static HaPeerProof proof(String secret) {
        return HaPeerProof.of(Optional.of(secret), "pull").orElseThrow();
    }

    @Test
    void bothSidesWithTheSecretProveThemselves() {
        HaPeerProof.Acceptor acceptor = proof(SECRET).acceptor();
        HaPeerProof.Dialer dialer = proof(SECRET).dialer();
        byte[] proof = dialer.prove(acceptor.challenge()).orElseThrow();
        assertThat(proof).hasSize(HaPeerProof.PROOF_BYTES);
        byte[] answer = acceptor.verify(proof).orElseThrow();
        assertThat(dialer.verify(answer)).isTrue();
    }

    @Test
    void aWrongSecretFailsOnEitherSide() {
        HaPeerProof.Acceptor acceptor = proof(SECRET).acceptor();
        HaPeerProof.Dialer impostor = proof("not-the-same-secret").dialer();
        assertThat(acceptor.verify(impostor.prove(acceptor.challenge()).orElseThrow())).isEmpty();

        HaPeerProof.Acceptor fakeMaster = proof("not-the-same-secret").acceptor();
        HaPeerProof.Dialer replica = proof(SECRET).dialer();
        byte[] replicaProof = replica.prove(fakeMaster.challenge()).orElseThrow();
        assertThat(fakeMaster.verify(replicaProof)).isEmpty();
        assertThat(replica.verify(new byte[HaPeerProof.ANSWER_BYTES])).isFalse();
    }

    @Test
    void aRecordedProofDoesNotOpenAnotherConnection() {
        HaPeerProof secret = proof(SECRET);
        HaPeerProof.Acceptor first = secret.acceptor();
        byte[] recorded = secret.dialer().prove(first.challenge()).orElseThrow();
        assertThat(first.verify(recorded)).isPresent();
        assertThat(secret.acceptor().verify(recorded)).as("replayed to a new challenge").isEmpty();
    }

    @Test
    void aRecordedAnswerDoesNotFoolAnotherReplica() {
        HaPeerProof secret = proof(SECRET);
        HaPeerProof.Acceptor master = secret.acceptor();
        byte[] challenge = master.challenge();
        byte[] recordedAnswer = master.verify(secret.dialer().prove(challenge).orElseThrow()).orElseThrow();
        HaPeerProof.Dialer next = secret.dialer();
        next.prove(challenge).orElseThrow();
        assertThat(next.verify(recordedAnswer)).as("same challenge replayed, other replica nonce").isFalse();
    }

    @Test
    void aProofReflectedAsTheAnswerIsRefused() {
        HaPeerProof secret = proof(SECRET);
        HaPeerProof.Dialer dialer = secret.dialer();
        byte[] proof = dialer.prove(secret.acceptor().challenge()).orElseThrow();
        assertThat(dialer.verify(Arrays.copyOfRange(proof, HaPeerProof.NONCE_BYTES, HaPeerProof.PROOF_BYTES)))
                .isFalse();
    }

    @Test
    void theStrategyNameIsBound() {
        HaPeerProof.Acceptor push = HaPeerProof.of(Optional.of(SECRET), "push").orElseThrow().acceptor();
        byte[] pullProof = proof(SECRET).dialer().prove(push.challenge()).orElseThrow();
        assertThat(push.verify(pullProof)).isEmpty();
    }

    @Test
    void theChallengeCarriesNoSecretAndNoncesAreFresh() {
        HaPeerProof secret = proof(SECRET);
        byte[] a = secret.acceptor().challenge();
        byte[] b = secret.acceptor().challenge();
        assertThat(new String(a, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("MQHA");
        assertThat(a).hasSize(HaPeerProof.CHALLENGE_BYTES).isNotEqualTo(b);
        assertThat(new String(a, StandardCharsets.ISO_8859_1)).doesNotContain(SECRET);
    }

    @Test
    void bytesThatAreNotAChallengeAreNotAnswered() {
        HaPeerProof.Dialer dialer = proof(SECRET).dialer();
        byte[] stockMasterFrame = new byte[HaPeerProof.CHALLENGE_BYTES];
        assertThat(dialer.prove(stockMasterFrame)).isEmpty();
        assertThat(dialer.verify(new byte[HaPeerProof.ANSWER_BYTES])).as("before any challenge").isFalse();
    }

    @Test
    void unsetMeansOffAndAShortSecretIsRefused() {
        assertThat(HaPeerProof.of(Optional.empty(), "pull")).isEmpty();
        assertThat(HaPeerProof.of(Optional.of("   "), "pull")).isEmpty();
        assertThatThrownBy(() -> HaPeerProof.of(Optional.of("short-secret"), "pull"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("haAuthSecret")
                .hasMessageNotContaining("short-secret");
        assertThat(proof(SECRET).toString()).doesNotContain(SECRET);
    }
}
