package org.modmq.controller.raft;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What a Ratis peer of the controller group needs.
 *
 * @param groupName                the group's name ({@code controllerDLegerGroup}); its Raft group id is derived from it
 * @param members                  every peer: id and Raft address
 * @param selfId                   this peer's id
 * @param storageDir               where the Raft log and the snapshots live ({@code controllerStorePath})
 * @param electionTimeoutMinMillis Raft election timeout min
 * @param electionTimeoutMaxMillis Raft election timeout max
 * @param snapshotThreshold        applied entries between two snapshots
 * @param requestTimeoutMillis     how long a write may take to commit
 */
public record RaftSettings(String groupName, List<Member> members, String selfId, Path storageDir,
                           long electionTimeoutMinMillis, long electionTimeoutMaxMillis, long snapshotThreshold,
                           long requestTimeoutMillis) {

    public RaftSettings {
        Objects.requireNonNull(groupName, "groupName");
        members = List.copyOf(members);
        Objects.requireNonNull(selfId, "selfId");
        Objects.requireNonNull(storageDir, "storageDir");
        if (members.stream().noneMatch(m -> m.id().equals(selfId))) {
            throw new IllegalArgumentException("self id " + selfId + " is not among " + members);
        }
        if (electionTimeoutMinMillis <= 0 || electionTimeoutMaxMillis < electionTimeoutMinMillis) {
            throw new IllegalArgumentException("election timeouts must satisfy 0 < min <= max: "
                    + electionTimeoutMinMillis + ", " + electionTimeoutMaxMillis);
        }
    }

    /** @return this peer */
    public Member self() {
        return members.stream().filter(m -> m.id().equals(selfId)).findFirst().orElseThrow();
    }

    /**
     * One peer.
     *
     * @param id          its id ({@code n0})
     * @param raftAddress {@code host:port} of its Ratis Netty server
     */
    public record Member(String id, String raftAddress) {
        public Member {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(raftAddress, "raftAddress");
        }
    }
}
