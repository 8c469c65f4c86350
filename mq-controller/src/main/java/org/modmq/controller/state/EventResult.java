package org.modmq.controller.state;

import org.modmq.remoting.protocol.ResponseCode;

/**
 * What applying one event did: {@link ResponseCode#SUCCESS}, or the RocketMQ response code that refused it
 * (state unchanged) and why.
 *
 * @param code   a {@link ResponseCode}
 * @param remark null on success
 */
public record EventResult(int code, String remark) {

    /** The result of an applied event. */
    public static final EventResult APPLIED = new EventResult(ResponseCode.SUCCESS, null);

    /** @return a refusal */
    public static EventResult refused(int code, String remark) {
        return new EventResult(code, remark);
    }

    /** @return whether the event changed the state */
    public boolean applied() {
        return code == ResponseCode.SUCCESS;
    }
}
