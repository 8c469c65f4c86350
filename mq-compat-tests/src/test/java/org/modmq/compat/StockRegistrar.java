package org.modmq.compat;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.DataVersion;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.body.RegisterBrokerBody;
import org.apache.rocketmq.remoting.protocol.body.TopicConfigAndMappingSerializeWrapper;
import org.apache.rocketmq.remoting.protocol.header.namesrv.RegisterBrokerRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.UnRegisterBrokerRequestHeader;

/**
 * Talks to a name server the way a stock broker does, with the stock remoting client and body
 * classes of rocketmq-remoting 5.3.3: {@code REGISTER_BROKER} with a {@link RegisterBrokerBody}
 * and a masked CRC32, {@code UNREGISTER_BROKER}, and any raw request. No broker listens at the
 * registered address. Not thread-safe; close it once done (idempotent).
 */
final class StockRegistrar implements AutoCloseable {

    static final long TIMEOUT_MILLIS = 3_000;

    private final NettyRemotingClient client;
    private boolean closed;

    StockRegistrar() {
        client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
    }

    /**
     * Sends a full registration.
     *
     * @param counter the DataVersion counter; a different one makes the name server rewrite the queue data
     * @return the name server's response
     */
    RemotingCommand register(String namesrvAddr, FakeBroker broker, List<TopicConfig> topics, long counter)
            throws Exception {
        RegisterBrokerRequestHeader header = new RegisterBrokerRequestHeader();
        header.setBrokerName(broker.brokerName());
        header.setBrokerAddr(broker.brokerAddr());
        header.setClusterName(broker.clusterName());
        header.setHaServerAddr(broker.haServerAddr());
        header.setBrokerId(broker.brokerId());
        header.setEnableActingMaster(false);
        header.setCompressed(false);

        ConcurrentHashMap<String, TopicConfig> table = new ConcurrentHashMap<>();
        topics.forEach(topic -> table.put(topic.getTopicName(), topic));
        DataVersion version = new DataVersion();
        version.setCounter(new AtomicLong(counter));
        TopicConfigAndMappingSerializeWrapper wrapper = new TopicConfigAndMappingSerializeWrapper();
        wrapper.setTopicConfigTable(table);
        wrapper.setDataVersion(version);
        RegisterBrokerBody body = new RegisterBrokerBody();
        body.setTopicConfigSerializeWrapper(wrapper);
        body.setFilterServerList(new ArrayList<>());
        byte[] bytes = body.encode(false);
        header.setBodyCrc32(UtilAll.crc32(bytes));

        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.REGISTER_BROKER, header);
        request.setBody(bytes);
        return invoke(namesrvAddr, request);
    }

    /** Sends {@code UNREGISTER_BROKER} for {@code broker}. */
    RemotingCommand unregister(String namesrvAddr, FakeBroker broker) throws Exception {
        UnRegisterBrokerRequestHeader header = new UnRegisterBrokerRequestHeader();
        header.setBrokerName(broker.brokerName());
        header.setBrokerAddr(broker.brokerAddr());
        header.setClusterName(broker.clusterName());
        header.setBrokerId(broker.brokerId());
        return invoke(namesrvAddr, RemotingCommand.createRequestCommand(RequestCode.UNREGISTER_BROKER, header));
    }

    /** Sends {@code request} and waits for the response, at most {@value #TIMEOUT_MILLIS} ms. */
    RemotingCommand invoke(String addr, RemotingCommand request) throws Exception {
        if (!addr.startsWith("127.0.0.1:")) {
            throw new IllegalArgumentException("only loopback addresses are dialled: " + addr);
        }
        return client.invokeSync(addr, request, TIMEOUT_MILLIS);
    }

    /** A stock topic configuration with the default filter type and no flags. */
    static TopicConfig topic(String name, int readQueues, int writeQueues, int perm) {
        return new TopicConfig(name, readQueues, writeQueues, perm);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            client.shutdown();
        }
    }

    /**
     * The identity a fake broker registers with.
     *
     * @param clusterName  {@code clusterName}
     * @param brokerName   {@code brokerName}
     * @param brokerId     0 for a master
     * @param brokerAddr   {@code 127.0.0.1:port} (nothing listens there)
     * @param haServerAddr {@code 127.0.0.1:port}
     */
    record FakeBroker(String clusterName, String brokerName, long brokerId, String brokerAddr, String haServerAddr) {
        FakeBroker {
            Objects.requireNonNull(clusterName, "clusterName");
            Objects.requireNonNull(brokerName, "brokerName");
            Objects.requireNonNull(brokerAddr, "brokerAddr");
            Objects.requireNonNull(haServerAddr, "haServerAddr");
        }
    }
}
