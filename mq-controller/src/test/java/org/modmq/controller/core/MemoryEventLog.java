package org.modmq.controller.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.modmq.controller.state.ControllerEvent;
import org.modmq.controller.state.ControllerState;
import org.modmq.controller.state.EventResult;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;

/** An {@link EventLog} in memory: applies at once; the test sets the leadership. Not thread-safe. */
public final class MemoryEventLog implements EventLog {

    private ControllerState state = ControllerState.EMPTY;
    private Leadership leadership = new Leadership(true, true, true, "n0", 0);
    final List<ControllerEvent> events = new ArrayList<>();

    @Override
    public ControllerState state() {
        return state;
    }

    @Override
    public Leadership leadership() {
        return leadership;
    }

    public void lead(Leadership next) {
        leadership = next;
    }

    @Override
    public CompletableFuture<EventResult> submit(ControllerEvent event) {
        if (!leadership.mayWrite()) {
            return CompletableFuture.failedFuture(new ResponseCodeException(ResponseCode.CONTROLLER_NOT_LEADER, "not leader"));
        }
        events.add(event);
        ControllerState.Applied applied = state.apply(event);
        state = applied.state();
        return CompletableFuture.completedFuture(applied.result());
    }

    @Override
    public void close() {
    }
}
