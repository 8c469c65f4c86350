package org.modmq.ha.push.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.ha.push.sync.EpochGate.EpochViolation;

/** What epoch a replica accepts bytes of. */
class EpochGateTest {

    @Test
    void continuesTheLastEpochAndEntersNewerOnesAtTheirStart() {
        EpochGate gate = new EpochGate(List.of(new EpochEntry(1, 0)), 3);
        assertThat(gate.admit(1, 0, 500)).isNull();
        EpochEntry two = gate.admit(2, 800, 800);
        assertThat(two).isEqualTo(new EpochEntry(2, 800));
        gate.started(two);
        assertThat(gate.admit(2, 800, 900)).isNull();
        assertThat(gate.admit(3, 1000, 1000)).isEqualTo(new EpochEntry(3, 1000));
    }

    @Test
    void fencesOlderEpochsAndEpochsBeyondTheMasters() {
        EpochGate gate = new EpochGate(List.of(new EpochEntry(1, 0), new EpochEntry(4, 100)), 5);
        assertThatThrownBy(() -> gate.admit(3, 100, 200)).isInstanceOf(EpochViolation.class)
                .hasMessageContaining("older");
        assertThatThrownBy(() -> gate.admit(0, 0, 200)).isInstanceOf(EpochViolation.class);
        assertThatThrownBy(() -> gate.admit(6, 200, 200)).isInstanceOf(EpochViolation.class)
                .hasMessageContaining("beyond the master's epoch 5");
    }

    @Test
    void refusesAnotherStartForTheSameEpochAndFramesCrossingABoundary() {
        EpochGate gate = new EpochGate(List.of(new EpochEntry(1, 0)), 2);
        assertThatThrownBy(() -> gate.admit(1, 10, 500)).isInstanceOf(EpochViolation.class);
        assertThatThrownBy(() -> gate.admit(2, 400, 500)).as("epoch 2 started inside bytes taken as epoch 1")
                .isInstanceOf(EpochViolation.class);
        assertThatThrownBy(() -> gate.admit(2, 600, 500)).as("a frame starting before its epoch")
                .isInstanceOf(EpochViolation.class);
    }

    @Test
    void anEpochLessReplicaMayEnterAnEpochMidway() {
        EpochGate classic = new EpochGate(List.of(), 0);
        assertThat(classic.admit(0, 0, 700)).isNull();
        EpochGate resumed = new EpochGate(List.of(), 3);
        assertThat(resumed.admit(3, 400, 700)).isEqualTo(new EpochEntry(3, 400));
        assertThat(resumed.masterEpoch()).isEqualTo(3);
    }
}
