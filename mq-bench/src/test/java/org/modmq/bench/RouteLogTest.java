package org.modmq.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RouteLogTest {

    private static final String A = "127.0.0.1:1001";
    private static final String B = "127.0.0.1:1002";
    private static final String C = "127.0.0.1:1003";

    @Test
    void keepsOnlyChangedAnswers() {
        RouteLog log = new RouteLog();
        log.record(view(10, Map.of(0L, A, 2L, B)));
        log.record(view(20, Map.of(0L, A, 2L, B)));
        log.record(view(30, Map.of(2L, B)));

        assertThat(log.changes()).extracting(BrokerSetView::nanos).containsExactly(10L, 30L);
        assertThat(log.polls()).isEqualTo(3);
        assertThat(log.latest()).get().extracting(BrokerSetView::nanos).isEqualTo(30L);
    }

    @Test
    void findsTheNewMasterAfterAGap() {
        RouteLog log = new RouteLog();
        log.record(view(10, Map.of(0L, A, 2L, B, 3L, C)));
        log.record(view(40, Map.of(2L, B, 3L, C)));
        log.record(view(50, Map.of(0L, B, 3L, C)));

        assertThat(log.firstSince(20, v -> v.hasMasterOtherThan(A))).get().extracting(BrokerSetView::nanos).isEqualTo(50L);
        assertThat(log.firstSince(20, v -> v.master() == null)).get().extracting(BrokerSetView::nanos).isEqualTo(40L);
        assertThat(log.masterChanges(20, 100)).isEqualTo(1);
        assertThat(log.masterGaps(20, 100)).isEqualTo(1);
    }

    @Test
    void countsEveryDifferentMasterAsAChange() {
        RouteLog log = new RouteLog();
        log.record(view(10, Map.of(0L, A)));
        log.record(view(20, Map.of(0L, B)));
        log.record(view(30, Map.of(0L, A)));
        log.record(view(40, Map.of(0L, A, 1L, C)));

        assertThat(log.masterChanges(0, 100)).isEqualTo(2);
        assertThat(log.masterChanges(25, 100)).isEqualTo(1);
        assertThat(log.masterChanges(0, 15)).isZero();
    }

    @Test
    void seesTheOldMasterBackAsAReplica() {
        RouteLog log = new RouteLog();
        log.record(view(10, Map.of(0L, B, 3L, C)));
        log.record(view(20, Map.of(0L, B, 1L, A, 3L, C)));

        BrokerSetView rejoined = log.firstSince(15, v -> v.listsAsReplica(A)).orElseThrow();
        assertThat(rejoined.idOf(A)).isEqualTo(1);
        assertThat(rejoined.listsAsReplica(B)).isFalse();
    }

    @Test
    void measuresTheLongestIntervalBetweenAnswersSinceTheMark() {
        RouteLog log = new RouteLog();
        log.record(view(10, Map.of(0L, A)));
        log.mark(100);
        log.record(view(105, Map.of(0L, A)));
        log.recordError();
        log.record(view(125, Map.of(0L, A)));

        assertThat(log.maxGapNanos()).isEqualTo(20);
        assertThat(log.pollErrors()).isEqualTo(1);
    }

    @Test
    void waitsForAChangeUntilTheDeadline() throws InterruptedException {
        RouteLog log = new RouteLog();
        log.record(view(System.nanoTime(), Map.of(0L, A)));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);

        assertThat(log.awaitSince(0, v -> v.hasMasterOtherThan(A), deadline)).isEmpty();
        assertThat(log.awaitLatest(v -> A.equals(v.master()), deadline)).isPresent();
    }

    private static BrokerSetView view(long nanos, Map<Long, String> addresses) {
        return new BrokerSetView(nanos, addresses);
    }
}
