package org.modmq.broker.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's side of the controller protocol: NOTIFY_BROKER_ROLE_CHANGED (1008, one-way, from a
 * controller; header {@code masterBrokerId, masterAddress, masterEpoch, syncStateSetEpoch}, body
 * {@code SyncStateSet}) makes the agent confirm the role with the controller leader (the notice itself is
 * not trusted: anyone reaching the port can send one); GET_BROKER_EPOCH_CACHE (1007, from
 * {@code mqadmin getBrokerEpoch}) answers RocketMQ's {@code EpochEntryCache}. Thread-safe; admin executor.
 */
public final class ControllerModeProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.NOTIFY_BROKER_ROLE_CHANGED, RequestCode.GET_BROKER_EPOCH_CACHE};

    private static final Logger LOG = LoggerFactory.getLogger(ControllerModeProcessor.class);

    private final ControllerRoleAgent agent;
    private final MessageStore store;
    private final String cluster;
    private final String brokerName;

    public ControllerModeProcessor(ControllerRoleAgent agent, MessageStore store, String cluster, String brokerName) {
        this.agent = Objects.requireNonNull(agent, "agent");
        this.store = Objects.requireNonNull(store, "store");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.brokerName = Objects.requireNonNull(brokerName, "brokerName");
    }

    /** RocketMQ's {@code EpochEntry}. */
    public record EpochEntryBody(int epoch, long startOffset, long endOffset) {
    }

    /** RocketMQ's {@code EpochEntryCache}. */
    public record EpochEntryCacheBody(String clusterName, String brokerName, long brokerId,
                                      List<EpochEntryBody> epochList, long maxOffset) {
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        if (request.code() == RequestCode.NOTIFY_BROKER_ROLE_CHANGED) {
            return notified(channel, request);
        }
        List<EpochEntry> epochs = store.epochs();
        long max = store.getCommitLogMaxOffset();
        List<EpochEntryBody> list = new ArrayList<>(epochs.size());
        for (int i = 0; i < epochs.size(); i++) {
            long end = i + 1 < epochs.size() ? epochs.get(i + 1).startOffset() : max;
            list.add(new EpochEntryBody(epochs.get(i).epoch(), epochs.get(i).startOffset(), end));
        }
        long id = store.role().master() ? 0 : agent.brokerId();
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null)
                .withBody(Json.encode(new EpochEntryCacheBody(cluster, brokerName, id, list, max)));
    }

    private RemotingCommand notified(RemotingChannel channel, RemotingCommand request) {
        try {
            ReplicaView view = ControllerClient.view(request);
            String from = channel.remoteAddressText();
            LOG.info("role-change notice from {}: master {} ({}) epoch {}, SyncStateSet {} epoch {}; confirming with "
                    + "the controller", from, view.masterBrokerId(), view.masterAddress(), view.masterEpoch(),
                    view.syncStateSet(), view.syncStateSetEpoch());
            agent.roleChangeNotified(view, from);
        } catch (RuntimeException e) {
            LOG.warn("ignoring a malformed NOTIFY_BROKER_ROLE_CHANGED: {}", e.getMessage());
            return request.isOneway() ? null : RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR,
                    "malformed NOTIFY_BROKER_ROLE_CHANGED: " + e.getMessage());
        }
        return request.isOneway() ? null : RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
    }
}
