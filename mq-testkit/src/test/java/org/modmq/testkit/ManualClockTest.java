package org.modmq.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ManualClockTest {

    @Test
    void standsStillUntilMoved() {
        ManualClock clock = new ManualClock(5_000);
        assertThat(clock.millis()).isEqualTo(5_000);
        assertThat(clock.instant()).isEqualTo(Instant.ofEpochMilli(5_000));
        assertThat(clock.millis()).isEqualTo(5_000);

        clock.advance(Duration.ofSeconds(2));
        assertThat(clock.millis()).isEqualTo(7_000);
        clock.advance(Duration.ofMillis(-500));
        assertThat(clock.millis()).isEqualTo(6_500);
    }

    @Test
    void setsAnyInstantAndKeepsSubMillisecondPrecision() {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        clock.set(Instant.parse("2025-06-01T12:00:00.000000123Z"));
        assertThat(clock.instant()).isEqualTo(Instant.parse("2025-06-01T12:00:00.000000123Z"));
        assertThat(clock.millis()).isEqualTo(Instant.parse("2025-06-01T12:00:00Z").toEpochMilli());
    }

    @Test
    void isUtcAndAZonedViewMovesWithIt() {
        ManualClock clock = new ManualClock(0);
        assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
        var zoned = clock.withZone(ZoneId.of("Asia/Tokyo"));
        clock.advance(Duration.ofMinutes(1));
        assertThat(zoned.millis()).isEqualTo(60_000);
    }
}
