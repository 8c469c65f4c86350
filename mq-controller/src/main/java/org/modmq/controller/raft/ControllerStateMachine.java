package org.modmq.controller.raft;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.MD5FileUtil;
import org.modmq.controller.state.ControllerEvent;
import org.modmq.controller.state.ControllerState;
import org.modmq.controller.state.EventResult;
import org.modmq.controller.state.StateCodec;
import org.modmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller state as a Ratis state machine: each committed entry is one {@link ControllerEvent},
 * applied in log order; the reply message is the {@link EventResult}. Snapshots are the whole state as
 * JSON in Ratis's single-file layout ({@code <sm dir>/snapshot.<term>_<index>} with an MD5 file), so a
 * restarted peer loads the newest one and replays only the entries after it, and a far-behind follower
 * is sent it by the leader.
 *
 * <p>Threading: Ratis applies entries on one thread; {@link #state()} may be read on any thread.
 */
final class ControllerStateMachine extends BaseStateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerStateMachine.class);

    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final Consumer<RaftPeerId> leaderChanges;
    private volatile ControllerState state = ControllerState.EMPTY;
    private volatile long loadedSnapshotIndex = -1;

    /** @param leaderChanges told the new leader's id (or null) whenever it changes; must not block */
    ControllerStateMachine(Consumer<RaftPeerId> leaderChanges) {
        this.leaderChanges = Objects.requireNonNull(leaderChanges, "leaderChanges");
    }

    ControllerState state() {
        return state;
    }

    /** @return the log index of the snapshot loaded at start (or installed since), -1 when none */
    long loadedSnapshotIndex() {
        return loadedSnapshotIndex;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        load(storage.loadLatestSnapshot());
    }

    @Override
    public void reinitialize() throws IOException {
        load(storage.loadLatestSnapshot());
    }

    @Override
    public SimpleStateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        byte[] data = entry.getStateMachineLogEntry().getLogData().toByteArray();
        EventResult result;
        synchronized (this) {
            try {
                ControllerState.Applied applied = state.apply(StateCodec.decodeEvent(data));
                state = applied.state();
                result = applied.result();
            } catch (IllegalArgumentException e) {
                // Every peer decodes the same bytes the same way, so skipping keeps them equal.
                LOG.error("entry {} is not a controller event; skipped: {}", TermIndex.valueOf(entry), e.getMessage());
                result = EventResult.refused(ResponseCode.SYSTEM_ERROR, "not a controller event: " + e.getMessage());
            }
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        }
        return CompletableFuture.completedFuture(
                Message.valueOf(UnsafeByteOperations.unsafeWrap(StateCodec.encodeResult(result))));
    }

    @Override
    public long takeSnapshot() throws IOException {
        ControllerState snapshotState;
        TermIndex applied;
        synchronized (this) {
            snapshotState = state;
            applied = getLastAppliedTermIndex();
        }
        if (applied == null || applied.getIndex() < 0) {
            return -1;
        }
        Path file = storage.getSnapshotFile(applied.getTerm(), applied.getIndex()).toPath();
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(temporary, StateCodec.encodeState(snapshotState));
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        MD5Hash md5 = MD5FileUtil.computeAndSaveMd5ForFile(file.toFile());
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file, md5), applied));
        LOG.info("snapshot of {} broker set(s) taken at {}: {}", snapshotState.brokerSets().size(), applied, file);
        return applied.getIndex();
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId groupMemberId, RaftPeerId newLeaderId) {
        leaderChanges.accept(newLeaderId);
    }

    private synchronized void load(SingleFileSnapshotInfo snapshot) throws IOException {
        if (snapshot == null) {
            return;
        }
        Path file = snapshot.getFile().getPath();
        if (!Files.exists(file)) {
            LOG.warn("snapshot file {} is missing; starting from the log alone", file);
            return;
        }
        if (snapshot.getFile().getFileDigest() != null) {
            MD5FileUtil.verifySavedMD5(file.toFile(), snapshot.getFile().getFileDigest());
        }
        TermIndex last = SimpleStateMachineStorage.getTermIndexFromSnapshotFile(file.toFile());
        try {
            state = StateCodec.decodeState(Files.readAllBytes(file));
        } catch (IllegalArgumentException e) {
            throw new IOException("snapshot " + file + " cannot be read: " + e.getMessage(), e);
        }
        setLastAppliedTermIndex(last);
        loadedSnapshotIndex = last.getIndex();
        LOG.info("loaded snapshot {} ({} broker set(s))", last, state.brokerSets().size());
    }
}
