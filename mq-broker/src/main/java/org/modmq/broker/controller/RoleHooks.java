package org.modmq.broker.controller;

/**
 * What the rest of the broker does when the controller changes this broker's role, after the store took
 * the new role: register with every name server at once (as id 0 and with the epoch as
 * {@code stateVersion} on a master; under its own id on a replica), and copy metadata from the master
 * while a replica. Called on the controller agent's thread; must not block.
 */
interface RoleHooks {

    /** This broker is master of {@code epoch}. */
    void becameMaster(int epoch);

    /** This broker is a replica of the master at {@code masterAddress} (main port) in {@code epoch}. */
    void becameReplica(int epoch, long brokerId, String masterAddress);
}
