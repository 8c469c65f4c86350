package org.modmq.ha.push.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.modmq.api.spi.replication.EpochEntry;

/** Which epoch a byte belongs to, and where that epoch ends. */
class EpochSpanTest {

    private final List<EpochEntry> history = List.of(new EpochEntry(2, 100), new EpochEntry(5, 300));

    @Test
    void bytesBeforeTheFirstEntryBelongToNoEpoch() {
        assertThat(EpochSpan.at(history, 0)).isEqualTo(new EpochSpan(0, 0, 100));
        assertThat(EpochSpan.at(history, 99)).isEqualTo(new EpochSpan(0, 0, 100));
        assertThat(EpochSpan.at(List.of(), 12345)).isEqualTo(new EpochSpan(0, 0, Long.MAX_VALUE));
    }

    @Test
    void anEntryCoversUpToTheNextStart() {
        assertThat(EpochSpan.at(history, 100)).isEqualTo(new EpochSpan(2, 100, 300));
        assertThat(EpochSpan.at(history, 299)).isEqualTo(new EpochSpan(2, 100, 300));
        assertThat(EpochSpan.at(history, 300)).isEqualTo(new EpochSpan(5, 300, Long.MAX_VALUE));
        assertThat(EpochSpan.at(history, 1 << 30)).isEqualTo(new EpochSpan(5, 300, Long.MAX_VALUE));
    }
}
