package org.modmq.compat;

import java.util.Set;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.body.SyncStateSet;
import org.apache.rocketmq.remoting.protocol.header.controller.AlterSyncStateSetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.controller.ElectMasterRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.controller.register.ApplyBrokerIdRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.controller.register.GetNextBrokerIdRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.controller.register.RegisterBrokerToControllerRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.BrokerHeartbeatRequestHeader;

/**
 * Talks to a controller the way a stock 5.3.3 broker's {@code ReplicasManager} does, with the stock
 * remoting client and header classes: next id (1012), apply (1013), register (1003), one-way heartbeats
 * (904), an election (1002) and a sync-state set change (1001). No broker listens at the addresses it
 * registers. Not thread-safe; close it once done (idempotent).
 */
final class StockControllerRegistrar implements AutoCloseable {

    static final long TIMEOUT_MILLIS = 3_000;
    /** Long enough that one heartbeat keeps a fake broker alive for the whole test. */
    static final long HEARTBEAT_TIMEOUT_MILLIS = 120_000;

    private final NettyRemotingClient client;
    private boolean closed;

    StockControllerRegistrar() {
        client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
    }

    /**
     * Runs the registration of one replica: next id, apply it, register, heartbeat.
     *
     * @return the id it got
     */
    long join(String controller, String clusterName, String brokerName, String brokerAddr) throws Exception {
        RemotingCommand next = invoke(controller, RemotingCommand.createRequestCommand(
                RequestCode.CONTROLLER_GET_NEXT_BROKER_ID, new GetNextBrokerIdRequestHeader(clusterName, brokerName)));
        expectSuccess(next);
        long id = Long.parseLong(next.getExtFields().get("nextBrokerId"));
        expectSuccess(invoke(controller, RemotingCommand.createRequestCommand(RequestCode.CONTROLLER_APPLY_BROKER_ID,
                new ApplyBrokerIdRequestHeader(clusterName, brokerName, id, brokerAddr + ";" + System.nanoTime()))));
        expectSuccess(invoke(controller, RemotingCommand.createRequestCommand(RequestCode.CONTROLLER_REGISTER_BROKER,
                new RegisterBrokerToControllerRequestHeader(clusterName, brokerName, id, brokerAddr))));
        heartbeat(controller, clusterName, brokerName, brokerAddr, id);
        return id;
    }

    /** Sends a one-way heartbeat, as stock brokers do. */
    void heartbeat(String controller, String clusterName, String brokerName, String brokerAddr, long id) throws Exception {
        BrokerHeartbeatRequestHeader header = new BrokerHeartbeatRequestHeader();
        header.setClusterName(clusterName);
        header.setBrokerName(brokerName);
        header.setBrokerAddr(brokerAddr);
        header.setBrokerId(id);
        header.setEpoch(0);
        header.setMaxOffset(0L);
        header.setConfirmOffset(0L);
        header.setHeartbeatTimeoutMills(HEARTBEAT_TIMEOUT_MILLIS);
        header.setElectionPriority(0);
        checkLoopback(controller);
        client.invokeOneway(controller, RemotingCommand.createRequestCommand(RequestCode.BROKER_HEARTBEAT, header),
                TIMEOUT_MILLIS);
    }

    /** A broker asks to be elected (1002). */
    RemotingCommand elect(String controller, String clusterName, String brokerName, long id) throws Exception {
        return invoke(controller, RemotingCommand.createRequestCommand(RequestCode.CONTROLLER_ELECT_MASTER,
                ElectMasterRequestHeader.ofBrokerTrigger(clusterName, brokerName, id)));
    }

    /** The master changes the sync-state set (1001). */
    RemotingCommand alterSyncStateSet(String controller, String brokerName, long masterId, int masterEpoch,
                                      Set<Long> members, int syncStateSetEpoch) throws Exception {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET,
                new AlterSyncStateSetRequestHeader(brokerName, masterId, masterEpoch));
        request.setBody(new SyncStateSet(members, syncStateSetEpoch).encode());
        return invoke(controller, request);
    }

    RemotingCommand invoke(String controller, RemotingCommand request) throws Exception {
        checkLoopback(controller);
        return client.invokeSync(controller, request, TIMEOUT_MILLIS);
    }

    static RemotingCommand expectSuccess(RemotingCommand response) {
        if (response.getCode() != 0) {
            throw new AssertionError("expected SUCCESS, got " + response.getCode() + ": " + response.getRemark());
        }
        return response;
    }

    private static void checkLoopback(String addr) {
        if (!addr.startsWith("127.0.0.1:")) {
            throw new IllegalArgumentException("only loopback addresses are dialled: " + addr);
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            client.shutdown();
        }
    }
}
