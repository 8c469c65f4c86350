package org.modmq.controller.core;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;

/**
 * Admits leader-only requests: on any peer that may not write now it builds the
 * {@code CONTROLLER_NOT_LEADER} (2007) refusal, naming the leader and its remoting address when known
 * (also as the {@code controllerLeaderId} and {@code controllerLeaderAddress} header fields, which is
 * what {@code CONTROLLER_GET_METADATA_INFO} answers), or saying that the quorum is lost. Stateless
 * apart from the peer table; thread-safe.
 */
public final class LeaderGate {

    private final String selfId;
    private final Map<String, String> remotingAddresses;

    /**
     * @param selfId            this peer's id
     * @param remotingAddresses every peer's remoting address by id
     */
    public LeaderGate(String selfId, Map<String, String> remotingAddresses) {
        this.selfId = Objects.requireNonNull(selfId, "selfId");
        this.remotingAddresses = new TreeMap<>(remotingAddresses);
    }

    /** @return the remoting address of peer {@code id}, or null */
    public String remotingAddressOf(String id) {
        return id == null ? null : remotingAddresses.get(id);
    }

    /** @return the peer ids, sorted */
    public java.util.Set<String> peerIds() {
        return remotingAddresses.keySet();
    }

    /**
     * @param leadership this peer's view now
     * @throws NotLeaderException unless this peer may write
     */
    public void admit(Leadership leadership) {
        if (!leadership.mayWrite()) {
            throw refusal(leadership);
        }
    }

    /** @return the refusal for a peer that may not write with this view */
    public NotLeaderException refusal(Leadership leadership) {
        String leaderAddress = remotingAddressOf(leadership.leaderId());
        String remark;
        if (leadership.leader() && !leadership.quorum()) {
            remark = "The controller is not in leader state: quorum lost, " + selfId + " is the Raft leader but has not"
                    + " heard from a majority of the controllers " + peerIds() + " recently; elections and writes are refused";
            leaderAddress = null;
        } else if (leadership.leader()) {
            remark = "The controller is not in leader state yet: " + selfId + " was just elected leader and is"
                    + " applying the entries of earlier terms; retry shortly";
            leaderAddress = null;
        } else if (leaderAddress != null) {
            remark = "The controller is not in leader state; the leader is " + leadership.leaderId() + " at " + leaderAddress;
        } else {
            remark = "The controller is not in leader state: no controller leader is known (quorum lost, or an election"
                    + " is under way) among " + peerIds();
        }
        return new NotLeaderException(remark, leadership.leader() ? null : leadership.leaderId(), leaderAddress);
    }

    /** {@code CONTROLLER_NOT_LEADER} with the leader's id and address, when known. */
    public static final class NotLeaderException extends ResponseCodeException {

        private static final long serialVersionUID = 1L;

        private final String leaderId;
        private final String leaderAddress;

        /**
         * @param remark        the remark
         * @param leaderId      the leader's id, or null
         * @param leaderAddress its remoting address, or null
         */
        public NotLeaderException(String remark, String leaderId, String leaderAddress) {
            super(ResponseCode.CONTROLLER_NOT_LEADER, remark);
            this.leaderId = leaderId;
            this.leaderAddress = leaderAddress;
        }

        /** @return the leader's id, or null */
        public String leaderId() {
            return leaderId;
        }

        /** @return the leader's remoting address, or null */
        public String leaderAddress() {
            return leaderAddress;
        }
    }
}
