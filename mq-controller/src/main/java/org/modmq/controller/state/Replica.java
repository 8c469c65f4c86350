package org.modmq.controller.state;

import java.util.Objects;

/**
 * One registered replica of a broker set.
 *
 * @param brokerId          the controller broker id (from 1)
 * @param address           the address clients and the controller dial, {@code host:port}
 * @param registerCheckCode what the broker applied with ({@code address;timestamp}); a broker that
 *                          applies again with the same code keeps its id
 */
public record Replica(long brokerId, String address, String registerCheckCode) {

    public Replica {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(registerCheckCode, "registerCheckCode");
    }
}
