package org.modmq.broker.processor;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.metadata.BrokerMetadata;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.body.DataVersion;

/**
 * Broker-wide reads used by tools and slaves: GET_BROKER_CONFIG (26), GET_ALL_CONSUMER_OFFSET (43),
 * GET_ALL_DELAY_OFFSET (45). Thread-safe; admin executor.
 */
public final class BrokerAdminProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.GET_BROKER_CONFIG, RequestCode.GET_ALL_CONSUMER_OFFSET,
        RequestCode.GET_ALL_DELAY_OFFSET};

    private final BrokerConfig config;
    private final BrokerMetadata metadata;
    private final DataVersion configVersion;

    /** @param configVersion version reported with the configuration (it changes only on restart) */
    public BrokerAdminProcessor(BrokerConfig config, BrokerMetadata metadata, DataVersion configVersion) {
        this.config = Objects.requireNonNull(config, "config");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.configVersion = Objects.requireNonNull(configVersion, "configVersion");
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.GET_BROKER_CONFIG -> Responses.success(request)
                    .putExtField("version", new String(Json.encode(configVersion), StandardCharsets.UTF_8))
                    .withBody(config.toPropertiesText().getBytes(StandardCharsets.UTF_8));
            case RequestCode.GET_ALL_CONSUMER_OFFSET -> Responses.json(request, metadata.consumerOffsets().wrapper());
            case RequestCode.GET_ALL_DELAY_OFFSET -> Responses.json(request, metadata.delayOffsets().wrapper());
            default -> Responses.error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported");
        };
    }
}
