package org.modmq.broker.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;
import org.modmq.broker.config.TimerConfig;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;
import org.modmq.testkit.ManualClock;

class TimerIntakeTest {

    private static final long NOW = 1_700_000_000_050L;
    private final ManualClock clock = new ManualClock(NOW);
    private final TimerIntake intake = new TimerIntake(TimerConfig.defaults(), clock);

    static BrokerMessage message(String topic, int queueId, int sysFlag, String... keyValues) {
        Map<String, String> properties = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            properties.put(keyValues[i], keyValues[i + 1]);
        }
        InetSocketAddress host = new InetSocketAddress("127.0.0.1", 10911);
        return new BrokerMessage(topic, queueId, 0, "body".getBytes(), MessageProperties.encode(properties),
                NOW, host, host, sysFlag, 0, 0);
    }

    @Test
    void futureDelayGoesToTheWheelTopicWithItsRealTopicAndSlot() {
        BrokerMessage redirected = intake.redirect(message("Orders", 3, 0, "TIMER_DELAY_MS", "3000", "UNIQ_KEY", "U1"));
        assertThat(redirected.topic()).isEqualTo("rmq_sys_wheel_timer");
        assertThat(redirected.queueId()).isZero();
        assertThat(redirected.propertyMap()).containsEntry("REAL_TOPIC", "Orders").containsEntry("REAL_QID", "3")
                .containsEntry("TIMER_DELAY_MS", "3000").containsEntry("UNIQ_KEY", "U1")
                // 1_700_000_003_050 rounded down to the 100 ms slot.
                .containsEntry("TIMER_OUT_MS", "1700000003000");
    }

    @Test
    void anExactMultipleTakesTheSlotBeforeSoThatItEndsAtTheAskedTime() {
        BrokerMessage redirected = intake.redirect(message("Orders", 0, 0, "TIMER_DELIVER_MS", "1700000005000"));
        assertThat(redirected.propertyMap()).containsEntry("TIMER_OUT_MS", "1700000004900");
    }

    @Test
    void delaySecondsWinOverTheOtherProperties() {
        BrokerMessage redirected = intake.redirect(message("Orders", 0, 0, "TIMER_DELAY_SEC", "10",
                "TIMER_DELAY_MS", "1", "TIMER_DELIVER_MS", "1"));
        assertThat(redirected.propertyMap()).containsEntry("TIMER_OUT_MS", "1700000010000");
    }

    @Test
    void aDeliveryTimeInThePastIsStoredAtOnce() {
        BrokerMessage original = message("Orders", 1, 0, "TIMER_DELIVER_MS", Long.toString(NOW - 5));
        assertThat(intake.redirect(original)).isSameAs(original);
    }

    @Test
    void aDelayAboveTimerMaxDelaySecIsRefusedAsRocketMqDoes() {
        assertThatThrownBy(() -> intake.redirect(message("Orders", 0, 0, "TIMER_DELAY_SEC", "259201")))
                .isInstanceOfSatisfying(ResponseCodeException.class, e -> {
                    assertThat(e.responseCode()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
                    assertThat(e.remark()).isEqualTo("timer message illegal, the delay time should not be bigger "
                            + "than the max delay 259200000ms; or if set del msg, the delay time should be bigger "
                            + "than the current time");
                });
        assertThat(intake.redirect(message("Orders", 0, 0, "TIMER_DELAY_SEC", "259200")).topic())
                .isEqualTo("rmq_sys_wheel_timer");
    }

    @Test
    void aMalformedValueIsRefusedWithItsName() {
        assertThatThrownBy(() -> intake.redirect(message("Orders", 0, 0, "TIMER_DELAY_MS", "soon")))
                .isInstanceOfSatisfying(ResponseCodeException.class, e -> {
                    assertThat(e.responseCode()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
                    assertThat(e.remark()).contains("TIMER_DELAY_MS=soon");
                });
        assertThatThrownBy(() -> intake.redirect(message("Orders", 0, 0, "TIMER_DELAY_SEC", "9223372036854775807")))
                .isInstanceOf(ResponseCodeException.class);
    }

    @Test
    void aDisabledWheelRefusesTimerMessages() {
        TimerIntake disabled = new TimerIntake(new TimerConfig(false, 259_200, 100, 1_000, false, false), clock);
        assertThatThrownBy(() -> disabled.redirect(message("Orders", 0, 0, "TIMER_DELAY_MS", "3000")))
                .isInstanceOfSatisfying(ResponseCodeException.class, e -> {
                    assertThat(e.responseCode()).isEqualTo(ResponseCode.SYSTEM_ERROR);
                    assertThat(e.remark()).isEqualTo("accurate timer message is not enabled, timerWheelEnable is false");
                });
    }

    @Test
    void aDelayLevelWinsAndTheTimerPropertiesAreDropped() {
        BrokerMessage kept = intake.redirect(message("Orders", 2, 0, "DELAY", "3", "TIMER_DELAY_MS", "3000"));
        assertThat(kept.topic()).isEqualTo("Orders");
        assertThat(kept.propertyMap()).containsEntry("DELAY", "3").doesNotContainKey("TIMER_DELAY_MS");
    }

    @Test
    void halfTransactionsPlainMessagesAndRolledTimersAreLeftAlone() {
        BrokerMessage half = message("Orders", 0, 0x4, "TIMER_DELAY_MS", "3000");
        BrokerMessage plain = message("Orders", 0, 0, "TAGS", "a");
        BrokerMessage wheel = message("rmq_sys_wheel_timer", 0, 0, "TIMER_DELAY_MS", "3000");
        BrokerMessage again = message("Orders", 0, 0, "TIMER_DELAY_MS", "3000", "TIMER_OUT_MS", "1");
        assertThat(intake.redirect(half)).isSameAs(half);
        assertThat(intake.redirect(plain)).isSameAs(plain);
        assertThat(intake.redirect(wheel)).isSameAs(wheel);
        assertThat(intake.redirect(again)).isSameAs(again);
    }
}
