package org.modmq.controller.processor;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.modmq.controller.core.EventLog;
import org.modmq.controller.core.LeaderGate;
import org.modmq.controller.core.Leadership;
import org.modmq.controller.core.RuntimeSettings;
import org.modmq.controller.liveness.BrokerKey;
import org.modmq.controller.liveness.BrokerLiveness;
import org.modmq.controller.liveness.Heartbeat;
import org.modmq.controller.state.BrokerSetState;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requests every peer answers by itself: {@code BROKER_HEARTBEAT} (904), {@code CONTROLLER_GET_METADATA_INFO}
 * (1005), {@code UPDATE_CONTROLLER_CONFIG} (1009) and {@code GET_CONTROLLER_CONFIG} (1010). Thread-safe.
 *
 * <p>Heartbeats: one-way (stock brokers) or two-way (modmq brokers). The answer is {@code SUCCESS}; a
 * peer that is the serving Raft leader with a quorum adds {@code isLeader=true} and, for the sender's
 * broker set, {@code masterBrokerId}, {@code masterAddress}, {@code masterEpoch} and
 * {@code syncStateSetEpoch}; any other peer adds {@code isLeader=false}. A leader's success renews the
 * sender's lease (see the module README).
 */
public final class NodeRequestProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRequestProcessor.class);

    private final EventLog log;
    private final BrokerLiveness liveness;
    private final LeaderGate gate;
    private final RuntimeSettings settings;
    private final String group;
    private final Supplier<Map<String, String>> configuration;
    private final long defaultHeartbeatTimeoutMillis;

    /**
     * @param log                           the replicated log (leadership and state)
     * @param liveness                      where heartbeats go
     * @param gate                          the peer table
     * @param settings                      what 1009 changes
     * @param group                         {@code controllerDLegerGroup}
     * @param configuration                 what 1010 lists (the runtime settings are laid over it)
     * @param defaultHeartbeatTimeoutMillis timeout of a heartbeat that names none
     */
    /** Heartbeat field of modmq brokers: role-change notices may come on the heartbeat's connection. */
    static final String NOTICE_ON_CONNECTION = "modmqNoticeOnConnection";

    public NodeRequestProcessor(EventLog log, BrokerLiveness liveness, LeaderGate gate, RuntimeSettings settings,
                                String group, Supplier<Map<String, String>> configuration, long defaultHeartbeatTimeoutMillis) {
        this.log = Objects.requireNonNull(log, "log");
        this.liveness = Objects.requireNonNull(liveness, "liveness");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.group = Objects.requireNonNull(group, "group");
        this.configuration = Objects.requireNonNull(configuration, "configuration");
        this.defaultHeartbeatTimeoutMillis = defaultHeartbeatTimeoutMillis;
    }

    /** Registers this processor's codes on {@code server}, to run on {@code executor}. */
    public void registerOn(RemotingServer server, ExecutorService executor) {
        RequestProcessor processor = RequestProcessor.sync(this::process);
        for (int code : new int[] {RequestCode.BROKER_HEARTBEAT, RequestCode.CONTROLLER_GET_METADATA_INFO,
                RequestCode.UPDATE_CONTROLLER_CONFIG, RequestCode.GET_CONTROLLER_CONFIG}) {
            server.registerProcessor(code, processor, executor);
        }
    }

    /** Answers one request of this processor's codes. */
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.BROKER_HEARTBEAT -> heartbeat(channel, request);
            case RequestCode.CONTROLLER_GET_METADATA_INFO -> metadata(request);
            case RequestCode.UPDATE_CONTROLLER_CONFIG -> updateConfig(channel, request);
            case RequestCode.GET_CONTROLLER_CONFIG -> getConfig(request);
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported");
        };
    }

    private RemotingCommand heartbeat(RemotingChannel channel, RemotingCommand request) {
        HeaderFields headers = request.headers();
        String clusterName = headers.requireString("clusterName");
        String brokerName = headers.requireString("brokerName");
        String brokerAddr = headers.requireString("brokerAddr");
        if (!headers.has("brokerId")) {
            return RemotingCommand.responseTo(request, ResponseCode.CONTROLLER_INVALID_REQUEST, "Heart beat with empty brokerId");
        }
        long brokerId = headers.requireLong("brokerId");
        long timeout = headers.optionalLong("heartbeatTimeoutMills", defaultHeartbeatTimeoutMillis);
        Heartbeat heartbeat = new Heartbeat(new BrokerKey(clusterName, brokerName, brokerId), brokerAddr,
                headers.optionalInt("epoch", -1), headers.optionalLong("maxOffset", -1),
                headers.optionalLong("confirmOffset", -1), timeout > 0 ? timeout : defaultHeartbeatTimeoutMillis,
                headers.optionalInt("electionPriority", Integer.MAX_VALUE));
        if (channel != null && headers.has(NOTICE_ON_CONNECTION) && Boolean.parseBoolean(headers.requireString(NOTICE_ON_CONNECTION))) {
            liveness.acceptsNoticesOn(channel);
        }
        if (liveness.onHeartbeat(heartbeat, channel)) {
            LOG.info("broker {} id {} of {} ({}) is alive (timeout {} ms)", brokerAddr, brokerId, brokerName, clusterName,
                    heartbeat.heartbeatTimeoutMillis());
        }
        if (request.isOneway()) {
            return null;
        }
        RemotingCommand response = RemotingCommand.responseTo(request, ResponseCode.SUCCESS, "Heart beat success");
        Leadership leadership = log.leadership();
        boolean leader = leadership.mayWrite();
        response.putExtField("isLeader", leader);
        if (leader) {
            BrokerSetState set = log.state().brokerSet(brokerName).orElse(null);
            if (set != null) {
                response.putExtField("masterBrokerId", set.masterBrokerId());
                response.putExtField("masterAddress", set.masterAddress());
                response.putExtField("masterEpoch", set.masterEpoch());
                response.putExtField("syncStateSetEpoch", set.syncStateSetEpoch());
            }
        }
        return response;
    }

    private RemotingCommand metadata(RemotingCommand request) {
        Leadership leadership = log.leadership();
        StringBuilder peers = new StringBuilder();
        for (String id : gate.peerIds()) {
            peers.append(id).append(':').append(gate.remotingAddressOf(id)).append(';');
        }
        RemotingCommand response = RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
        response.putExtField("group", group);
        response.putExtField("controllerLeaderId", leadership.leaderId());
        response.putExtField("controllerLeaderAddress", gate.remotingAddressOf(leadership.leaderId()));
        response.putExtField("isLeader", leadership.leader());
        response.putExtField("peers", peers.toString());
        return response;
    }

    private RemotingCommand updateConfig(RemotingChannel channel, RemotingCommand request) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(new String(request.body(), StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR, "string2Properties error: " + e.getMessage());
        }
        Map<String, String> values = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> values.put(name, properties.getProperty(name)));
        Set<String> fixed = new TreeSet<>(values.keySet());
        fixed.removeAll(RuntimeSettings.KEYS);
        if (!fixed.isEmpty()) {
            return RemotingCommand.responseTo(request, ResponseCode.NO_PERMISSION, "Can not update config " + fixed
                    + " at run time; keys that can be updated: " + new TreeSet<>(RuntimeSettings.KEYS));
        }
        try {
            settings.update(values);
        } catch (IllegalArgumentException e) {
            return RemotingCommand.responseTo(request, ResponseCode.INVALID_PARAMETER, e.getMessage());
        }
        LOG.info("controller settings updated by {}: {}", channel.remoteAddressText(), values);
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
    }

    private RemotingCommand getConfig(RemotingCommand request) {
        Map<String, String> all = new TreeMap<>(configuration.get());
        all.putAll(settings.asProperties());
        StringBuilder text = new StringBuilder();
        all.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null)
                .withBody(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** @return the ids answered as peers, for tests */
    List<String> peerIds() {
        return List.copyOf(gate.peerIds());
    }
}
