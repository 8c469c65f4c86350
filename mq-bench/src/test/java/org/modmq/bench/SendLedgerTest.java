package org.modmq.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.exception.RemotingConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SendLedgerTest {

    private static final String OLD = "127.0.0.1:1001";
    private static final String NEW = "127.0.0.1:1002";

    @TempDir
    Path work;

    @Test
    void roundTripsKeysOfItsRunOnly() {
        SendLedger ledger = new SendLedger("fo1a-");
        long sequence = ledger.nextSequence();

        assertThat(ledger.sequenceOf(ledger.key(sequence))).isEqualTo(sequence);
        assertThat(ledger.sequenceOf("fo2b-0")).isEqualTo(-1);
        assertThat(ledger.sequenceOf(null)).isEqualTo(-1);
        assertThat(ledger.sequenceOf("fo1a-x")).isEqualTo(-1);
    }

    @Test
    void splitsOutcomesAtTheFault() {
        SendLedger ledger = new SendLedger("k-");
        ledger.acknowledged(0, 10, 12, OLD);
        ledger.failed(20, new RemotingConnectException(OLD));
        ledger.markFault(100, OLD);
        ledger.failed(90, new RemotingConnectException(OLD));
        ledger.failed(110, new MQClientException("Send [1] times, still failed", new RemotingConnectException(OLD)));
        ledger.refused(120, "FLUSH_SLAVE_TIMEOUT");

        assertThat(ledger.failedBeforeFault()).isEqualTo(2);
        assertThat(ledger.failedAfterFault()).isEqualTo(2);
        assertThat(ledger.outcomesAfter()).isEqualTo(Map.of("RemotingConnectException", 1L, "FLUSH_SLAVE_TIMEOUT", 1L));
        assertThat(ledger.isAcknowledged(0)).isTrue();
        assertThat(ledger.isAcknowledged(1)).isFalse();
    }

    @Test
    void tellsTheDyingMastersLastAnswersFromTheNewMastersFirst() {
        SendLedger ledger = new SendLedger("k-");
        ledger.markFault(1_000, OLD);
        ledger.acknowledged(1, 900, 1_050, OLD);
        ledger.acknowledged(2, 1_010, 1_030, OLD);
        ledger.acknowledged(3, 1_500, 2_000, NEW);
        ledger.acknowledged(4, 1_600, 2_100, NEW);

        assertThat(ledger.firstOkAfterFaultNanos()).isEqualTo(30);
        assertThat(ledger.firstOkStoreHost()).isEqualTo(OLD);
        assertThat(ledger.oldMasterOksAfterFault()).isEqualTo(1);
        assertThat(ledger.lastOldMasterOkNanos()).isEqualTo(30);
        assertThat(ledger.firstOkElsewhereNanos()).isEqualTo(1_000);
    }

    @Test
    void reportsNothingBeforeAnyAnswer() {
        SendLedger ledger = new SendLedger("k-");
        ledger.markFault(1_000, OLD);

        assertThat(ledger.firstOkAfterFaultNanos()).isEqualTo(-1);
        assertThat(ledger.firstOkElsewhereNanos()).isEqualTo(-1);
        assertThat(ledger.lastOldMasterOkNanos()).isEqualTo(-1);
    }

    @Test
    void namesFailuresByTheirRocketMqCauseAndCode() {
        assertThat(SendLedger.outcomeOf(new MQBrokerException(2012, "not master"))).isEqualTo("MQBrokerException_2012");
        assertThat(SendLedger.outcomeOf(new MQClientException(17, "no route"))).isEqualTo("MQClientException_17");
        assertThat(SendLedger.outcomeOf(new MQClientException("wrapped", new IllegalStateException("x"))))
                .isEqualTo("MQClientException");
    }

    @Test
    void resolvesTheFaultTargetByMasterAddressOrFile() throws Exception {
        Path file = Files.writeString(work.resolve("master.pid"), "4242\n");

        assertThat(new FaultTarget(null, null, Map.of(OLD, 11L, NEW, 12L)).resolve(NEW)).isEqualTo(12);
        assertThat(new FaultTarget(null, file, null).resolve(OLD)).isEqualTo(4242);
        assertThat(new FaultTarget(7L, null, null).resolve(OLD)).isEqualTo(7);
        assertThatThrownBy(() -> new FaultTarget(null, null, Map.of(OLD, 11L)).resolve(NEW))
                .isInstanceOf(BenchException.class).hasMessageContaining(NEW);
    }
}
