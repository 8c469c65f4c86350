package org.modmq.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.modmq.broker.stats.MessageEvents;

/** The DLQ, transaction and timer families read what {@link MessageEvents} counted, with RocketMQ's labels. */
class MessageEventsTest {

    private final RecordingSink sink = new RecordingSink();
    private final MessageEvents events = new MessageEvents();

    @Test
    void familiesCarryTheCountsByTopicAndGroup() {
        events.register(sink);
        events.sentToDlq("cg", "Orders");
        events.sentToDlq("cg", "Orders");
        events.sentToDlq("CID_RMQ_SYS_x", "Orders");
        events.halfStored("Tx");
        events.halfStored("Tx");
        events.halfStored("Tx");
        events.committed("Tx");
        events.rolledBack("Tx");
        events.timerEnqueued("Later");
        events.timerEnqueued("Later");
        events.timerDequeued("Later");

        assertThat(sink.read("rocketmq_send_to_dlq_messages_total")).containsExactlyInAnyOrder(
                new RecordingSink.Sample(2, List.of("cg", "Orders", "false")),
                new RecordingSink.Sample(1, List.of("CID_RMQ_SYS_x", "Orders", "true")));
        assertThat(sink.read("rocketmq_commit_messages_total")).containsExactly(
                new RecordingSink.Sample(1, List.of("Tx")));
        assertThat(sink.read("rocketmq_rollback_messages_total")).containsExactly(
                new RecordingSink.Sample(1, List.of("Tx")));
        assertThat(sink.read("rocketmq_half_messages")).containsExactly(new RecordingSink.Sample(1, List.of("Tx")));
        assertThat(sink.read("rocketmq_timer_enqueue_total")).containsExactly(
                new RecordingSink.Sample(2, List.of("Later")));
        assertThat(sink.read("rocketmq_timer_dequeue_total")).containsExactly(
                new RecordingSink.Sample(1, List.of("Later")));
        assertThat(sink.read("rocketmq_timing_messages")).containsExactly(
                new RecordingSink.Sample(1, List.of("Later")));
    }

    @Test
    void gaugesNeverGoBelowZeroForWhatWasOpenBeforeAStart() {
        events.register(sink);
        // A half message stored before the restart is committed after it; a timer enqueued before it fires.
        events.committed("Tx");
        events.timerDequeued("Later");
        assertThat(sink.read("rocketmq_half_messages")).containsExactly(new RecordingSink.Sample(0, List.of("Tx")));
        assertThat(sink.read("rocketmq_timing_messages")).containsExactly(
                new RecordingSink.Sample(0, List.of("Later")));
        assertThat(events.halfMessages("Tx")).isZero();
    }
}
