package org.modmq.api.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.modmq.api.config.ConfigException;

class DelayLevelsTest {

    @Test
    void theDefaultHasRocketMqsEighteenLevels() {
        DelayLevels levels = DelayLevels.parse(DelayLevels.DEFAULT);
        assertThat(levels.count()).isEqualTo(18);
        assertThat(levels.millis(1)).isEqualTo(1_000);
        assertThat(levels.millis(2)).isEqualTo(5_000);
        assertThat(levels.millis(5)).isEqualTo(60_000);
        assertThat(levels.millis(18)).isEqualTo(7_200_000);
        assertThat(levels.deliverAt(3, 1_000)).isEqualTo(11_000);
    }

    @Test
    void unitsAndClamping() {
        DelayLevels levels = DelayLevels.parse(" 2s  3m 1h 1d ");
        assertThat(levels.count()).isEqualTo(4);
        assertThat(levels.millis(2)).isEqualTo(180_000);
        assertThat(levels.millis(4)).isEqualTo(86_400_000);
        assertThat(levels.clamp(9)).isEqualTo(4);
        assertThat(levels.millis(9)).isEqualTo(86_400_000);
        assertThat(levels.queueId(9)).isEqualTo(3);
        assertThat(levels.queueId(1)).isZero();
        assertThat(levels).hasToString("2s 3m 1h 1d");
    }

    @Test
    void badValuesNameTheKeyAndThePart() {
        for (String bad : new String[] {"", "  ", "1s 5x", "s", "1.5s", "-1s", "1S", "99999999999999999d", "10"}) {
            assertThatThrownBy(() -> DelayLevels.parse(bad)).as(bad).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("messageDelayLevel");
        }
        assertThatThrownBy(() -> DelayLevels.parse("1s 5x")).hasMessageContaining("'5x'");
    }
}
