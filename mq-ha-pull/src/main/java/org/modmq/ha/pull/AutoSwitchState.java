package org.modmq.ha.pull;

/**
 * The connection states of RocketMQ's AutoSwitch HA ({@code HAConnectionState}). Both ends run one of
 * these state machines, and every AutoSwitch frame starts with the sender's state as an int32: the
 * state's position in this enum, which must therefore keep RocketMQ's order.
 */
enum AutoSwitchState {
    /** Replica: not connected (RocketMQ truncates an invalid tail and dials from here). */
    READY,
    /** Both: connected; the replica has sent or the master has answered the handshake. */
    HANDSHAKE,
    /** Both: logs reconciled; the master streams and the replica reports. */
    TRANSFER,
    /** Replica: stopped following until told again (RocketMQ: transfer paused). */
    SUSPEND,
    /** Both: closed. */
    SHUTDOWN;

    /** The int32 that stands for this state on the wire (RocketMQ writes the ordinal). */
    int wireCode() {
        return ordinal();
    }

    /** The state a wire code names, or null for a code no state has. */
    static AutoSwitchState fromWire(int code) {
        AutoSwitchState[] all = values();
        return code >= 0 && code < all.length ? all[code] : null;
    }
}
