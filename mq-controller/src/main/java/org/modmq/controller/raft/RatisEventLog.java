package org.modmq.controller.raft;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.modmq.controller.core.EventLog;
import org.modmq.controller.core.Leadership;
import org.modmq.controller.liveness.Ticker;
import org.modmq.controller.state.ControllerEvent;
import org.modmq.controller.state.ControllerState;
import org.modmq.controller.state.EventResult;
import org.modmq.controller.state.StateCodec;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's {@link EventLog} on one Apache Ratis server (Netty RPC, segmented log and
 * snapshots under {@code storageDir}). Writes are submitted to the local server directly, without a
 * client RPC; a peer that is not the leader refuses them at once. A new leader proposes a
 * {@link ControllerEvent.Barrier} and counts as serving only once that is applied.
 *
 * <p>Life cycle: construct, {@link #start()}, {@link #close()}. Threading: thread-safe.
 */
public final class RatisEventLog implements EventLog {

    private static final Logger LOG = LoggerFactory.getLogger(RatisEventLog.class);

    private final RaftSettings settings;
    private final Ticker ticker;
    private final Function<String, ResponseCodeException> notLeader;
    private final RaftGroup group;
    private final RaftPeerId selfId;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private final AtomicLong barrierRequestedTerm = new AtomicLong(-1);
    private final AtomicLong barrierAppliedTerm = new AtomicLong(-1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ControllerStateMachine stateMachine;
    private RaftServer server;

    /**
     * @param settings  the group and this peer
     * @param ticker    the clock leadership times are read on
     * @param notLeader builds the refusal of a write this peer cannot make, given the leader's id (or null)
     */
    public RatisEventLog(RaftSettings settings, Ticker ticker, Function<String, ResponseCodeException> notLeader) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.notLeader = Objects.requireNonNull(notLeader, "notLeader");
        List<RaftPeer> peers = settings.members().stream()
                .map(m -> RaftPeer.newBuilder().setId(m.id()).setAddress(m.raftAddress()).build()).toList();
        UUID groupUuid = UUID.nameUUIDFromBytes(settings.groupName().getBytes(StandardCharsets.UTF_8));
        this.group = RaftGroup.valueOf(RaftGroupId.valueOf(groupUuid), peers);
        this.selfId = RaftPeerId.valueOf(settings.selfId());
        this.stateMachine = new ControllerStateMachine(leader -> LOG.info("controller {}: Raft leader is now {}",
                settings.selfId(), leader));
    }

    /**
     * Opens the storage (recovering an existing one) and starts the Ratis server.
     *
     * @return this
     * @throws UncheckedIOException when the storage cannot be opened or the Raft port cannot be bound
     */
    public RatisEventLog start() {
        try {
            server = RaftServer.newBuilder()
                    .setServerId(selfId)
                    .setGroup(group)
                    .setStateMachine(stateMachine)
                    .setProperties(properties())
                    .setOption(RaftStorage.StartupOption.RECOVER)
                    .build();
            server.start();
        } catch (IOException e) {
            closeServer();
            throw new UncheckedIOException("controller " + settings.selfId() + ": cannot start Ratis on "
                    + settings.self().raftAddress() + " with storage " + settings.storageDir() + ": " + e.getMessage(), e);
        }
        LOG.info("controller {}: Ratis peer started on {}, group {} {}", settings.selfId(), settings.self().raftAddress(),
                settings.groupName(), settings.members());
        return this;
    }

    private RaftProperties properties() {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.NETTY);
        String raftAddress = settings.self().raftAddress();
        int colon = raftAddress.lastIndexOf(':');
        NettyConfigKeys.Server.setHost(properties, raftAddress.substring(0, colon));
        NettyConfigKeys.Server.setPort(properties, Integer.parseInt(raftAddress.substring(colon + 1)));
        // NIO: the shaded epoll library would be unpacked and loaded for a few messages a second.
        NettyConfigKeys.Server.setUseEpoll(properties, false);
        NettyConfigKeys.Client.setUseEpoll(properties, false);
        RaftServerConfigKeys.setStorageDir(properties, List.of(settings.storageDir().toFile()));
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties,
                TimeDuration.valueOf(settings.electionTimeoutMinMillis(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties,
                TimeDuration.valueOf(settings.electionTimeoutMaxMillis(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, settings.snapshotThreshold());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(properties, 2);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
        // Controller entries are a few hundred bytes: keep segments and their preallocation small.
        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf("1MB"));
        RaftServerConfigKeys.Log.setPreallocatedSize(properties, SizeInBytes.valueOf("64KB"));
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(properties, SizeInBytes.valueOf("256KB"));
        RaftServerConfigKeys.Log.setWriteBufferSize(properties, SizeInBytes.valueOf("512KB"));
        return properties;
    }

    @Override
    public ControllerState state() {
        return stateMachine.state();
    }

    @Override
    public Leadership leadership() {
        DivisionInfo info = info();
        if (info == null) {
            return Leadership.NONE;
        }
        RaftPeerId leaderId = info.getLeaderId();
        String leader = leaderId == null ? null : leaderId.toString();
        if (!info.isLeader()) {
            return new Leadership(false, false, false, leader, 0);
        }
        RoleInfoProto role = info.getRoleInfoProto();
        long term = info.getCurrentTerm();
        boolean ready = info.isLeaderReady();
        if (ready) {
            proposeBarrier(term);
        }
        boolean serving = ready && barrierAppliedTerm.get() == term;
        long since = ticker.millis() - role.getRoleElapsedTimeMs();
        return new Leadership(true, serving, hasQuorum(role), settings.selfId(), since);
    }

    private boolean hasQuorum(RoleInfoProto role) {
        if (!role.hasLeaderInfo()) {
            return false;
        }
        int heard = 1;
        for (ServerRpcProto follower : role.getLeaderInfo().getFollowerInfoList()) {
            if (follower.getLastRpcElapsedTimeMs() <= settings.electionTimeoutMinMillis()) {
                heard++;
            }
        }
        return heard > settings.members().size() / 2;
    }

    private void proposeBarrier(long term) {
        long requested = barrierRequestedTerm.get();
        if (requested >= term || !barrierRequestedTerm.compareAndSet(requested, term)) {
            return;
        }
        submit(new ControllerEvent.Barrier(term)).whenComplete((result, error) -> {
            if (error == null && result.applied()) {
                barrierAppliedTerm.accumulateAndGet(term, Math::max);
                LOG.info("controller {}: leader of term {}, earlier entries applied; serving", settings.selfId(), term);
            } else {
                barrierRequestedTerm.compareAndSet(term, -1);
                LOG.info("controller {}: barrier of term {} failed ({}); tried again", settings.selfId(), term,
                        error != null ? error.toString() : result);
            }
        });
    }

    @Override
    public CompletableFuture<EventResult> submit(ControllerEvent event) {
        Objects.requireNonNull(event, "event");
        if (server == null || closed.get()) {
            return CompletableFuture.failedFuture(notLeader.apply(null));
        }
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(selfId)
                .setGroupId(group.getGroupId())
                .setCallId(callIds.incrementAndGet())
                .setMessage(Message.valueOf(UnsafeByteOperations.unsafeWrap(StateCodec.encodeEvent(event))))
                .setType(RaftClientRequest.writeRequestType())
                .setTimeoutMs(settings.requestTimeoutMillis())
                .build();
        CompletableFuture<RaftClientReply> reply;
        try {
            reply = server.submitClientRequestAsync(request);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(notLeader.apply(leaderIdOrNull()));
        }
        return reply.orTimeout(settings.requestTimeoutMillis(), TimeUnit.MILLISECONDS)
                .handle((answer, error) -> {
                    if (error != null) {
                        throw failure(error, event);
                    }
                    if (!answer.isSuccess()) {
                        NotLeaderException notLeaderException = answer.getNotLeaderException();
                        if (notLeaderException != null || answer.getLeaderNotReadyException() != null) {
                            throw notLeader.apply(notLeaderException != null && notLeaderException.getSuggestedLeader() != null
                                    ? notLeaderException.getSuggestedLeader().getId().toString() : null);
                        }
                        throw new ResponseCodeException(ResponseCode.CONTROLLER_NOT_LEADER, "the controller could not"
                                + " commit the write: " + answer.getException());
                    }
                    return StateCodec.decodeResult(answer.getMessage().getContent().toByteArray());
                });
    }

    private CompletionException failure(Throwable error, ControllerEvent event) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof TimeoutException) {
            return new CompletionException(new ResponseCodeException(ResponseCode.CONTROLLER_NOT_LEADER,
                    "The controller is not in leader state: the write was not committed within "
                            + settings.requestTimeoutMillis() + " ms (quorum lost?)"));
        }
        LOG.debug("write {} failed", event, cause);
        return new CompletionException(notLeader.apply(leaderIdOrNull()));
    }

    private String leaderIdOrNull() {
        DivisionInfo info = info();
        return info == null || info.getLeaderId() == null ? null : info.getLeaderId().toString();
    }

    private DivisionInfo info() {
        RaftServer running = server;
        if (running == null || closed.get()) {
            return null;
        }
        try {
            return running.getDivision(group.getGroupId()).getInfo();
        } catch (IOException e) {
            return null;
        }
    }

    /** Takes a snapshot now, for tests and operators; @return its log index, or -1 when nothing was applied */
    public long snapshotNow() {
        try {
            return stateMachine.takeSnapshot();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the log index of the snapshot this peer started from (or installed), -1 when none */
    public long loadedSnapshotIndex() {
        return stateMachine.loadedSnapshotIndex();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            closeServer();
        }
    }

    private void closeServer() {
        RaftServer running = server;
        if (running != null) {
            try {
                running.close();
            } catch (IOException e) {
                LOG.warn("controller {}: closing Ratis failed", settings.selfId(), e);
            }
        }
    }
}
