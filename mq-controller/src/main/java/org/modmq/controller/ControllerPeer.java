package org.modmq.controller;

import java.util.Objects;

/**
 * One controller of the group.
 *
 * @param id              its id, e.g. {@code n0}
 * @param remotingAddress {@code host:port} brokers and {@code mqadmin} dial (RocketMQ's {@code controllerDLegerPeers})
 * @param raftAddress     {@code host:port} the other controllers replicate over (modmq's {@code controllerRaftPeers})
 */
public record ControllerPeer(String id, String remotingAddress, String raftAddress) {

    public ControllerPeer {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(remotingAddress, "remotingAddress");
        Objects.requireNonNull(raftAddress, "raftAddress");
    }

    /** @return the host part of the remoting address */
    public String remotingHost() {
        return remotingAddress.substring(0, remotingAddress.lastIndexOf(':'));
    }

    /** @return the port part of the remoting address */
    public int remotingPort() {
        return Integer.parseInt(remotingAddress.substring(remotingAddress.lastIndexOf(':') + 1));
    }
}
