package org.modmq.broker.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.api.message.DelayLevels;
import org.modmq.api.message.MessageSysFlag;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;

class DelayRedirectTest {

    private final DelayRedirect redirect = new DelayRedirect(DelayLevels.parse("1s 5s 10s"));

    private static Map<String, String> props(String... pairs) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @Test
    void aLevelSendsTheMessageToItsScheduleQueueAndRemembersWhereItWasGoing() {
        Map<String, String> properties = props("DELAY", "2", "TIMER_DELIVER_MS", "1", "TIMER_DELAY_SEC", "3");
        DelayRedirect.Target target = redirect.redirect("TopicA", 5, properties, 0);
        assertThat(target).isEqualTo(new DelayRedirect.Target("SCHEDULE_TOPIC_XXXX", 1));
        assertThat(properties).containsEntry("REAL_TOPIC", "TopicA").containsEntry("REAL_QID", "5")
                .containsEntry("DELAY", "2").doesNotContainKeys("TIMER_DELIVER_MS", "TIMER_DELAY_SEC");

        Map<String, String> high = props("DELAY", "99");
        assertThat(redirect.redirect("TopicA", 0, high, MessageSysFlag.TRANSACTION_COMMIT_TYPE).queueId()).isEqualTo(2);
        assertThat(high).containsEntry("DELAY", "3");
    }

    @Test
    void noLevelAPreparedOrRolledBackTransactionStayWhereTheyAre() {
        for (Map<String, String> properties : List.of(props(), props("DELAY", "0"), props("DELAY", "-1"))) {
            assertThat(redirect.redirect("TopicA", 1, properties, 0)).isEqualTo(new DelayRedirect.Target("TopicA", 1));
            assertThat(properties).doesNotContainKey("REAL_TOPIC");
        }
        Map<String, String> prepared = props("DELAY", "2");
        assertThat(redirect.redirect("TopicA", 1, prepared, MessageSysFlag.TRANSACTION_PREPARED_TYPE).topic())
                .isEqualTo("TopicA");
        assertThat(redirect.redirect("TopicA", 1, props("DELAY", "2"), MessageSysFlag.TRANSACTION_ROLLBACK_TYPE)
                .topic()).isEqualTo("TopicA");
        assertThat(prepared).doesNotContainKey("REAL_TOPIC");
    }

    @Test
    void aDelayThatIsNoNumberIsAnIllegalMessage() {
        assertThatThrownBy(() -> redirect.redirect("TopicA", 0, props("DELAY", "soon"), 0))
                .isInstanceOfSatisfying(ResponseCodeException.class,
                        e -> assertThat(e.responseCode()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL))
                .hasMessageContaining("soon");
    }
}
