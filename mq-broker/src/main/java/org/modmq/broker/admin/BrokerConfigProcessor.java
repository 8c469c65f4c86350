package org.modmq.broker.admin;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import org.modmq.api.config.ConfigException;
import org.modmq.broker.runtime.LiveBrokerConfig;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * UPDATE_BROKER_CONFIG (25) and GET_BROKER_CONFIG (26) over a {@link LiveBrokerConfig}: the update
 * body is {@code key=value} lines; a key the broker knows that cannot change at run time answers
 * NO_PERMISSION (RocketMQ's code for its black-listed keys), an unknown key or a bad value
 * INVALID_PARAMETER, each naming the key, with nothing applied (see
 * {@link org.modmq.broker.runtime.RuntimeKeys} for the keys that may change). GET_BROKER_CONFIG
 * answers the configuration in force with its version, so it replaces the start-up-only answer.
 * Thread-safe; admin executor.
 */
public final class BrokerConfigProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.UPDATE_BROKER_CONFIG, RequestCode.GET_BROKER_CONFIG};

    private final LiveBrokerConfig config;

    public BrokerConfigProcessor(LiveBrokerConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.UPDATE_BROKER_CONFIG -> update(request);
            case RequestCode.GET_BROKER_CONFIG -> AdminResponses.success(request)
                    .putExtField("version", new String(Json.encode(config.version()), StandardCharsets.UTF_8))
                    .withBody(config.current().toPropertiesText().getBytes(StandardCharsets.UTF_8));
            default -> AdminResponses.unsupported(request);
        };
    }

    private RemotingCommand update(RemotingCommand request) {
        byte[] body = request.body();
        if (body == null || body.length == 0) {
            return AdminResponses.error(request, ResponseCode.INVALID_PARAMETER, "the request body is empty");
        }
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(new String(body, StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
            return AdminResponses.error(request, ResponseCode.INVALID_PARAMETER,
                    "the body is not key=value lines: " + e.getMessage());
        }
        Map<String, String> changes = new TreeMap<>();
        properties.stringPropertyNames().forEach(k -> changes.put(k.trim(), properties.getProperty(k)));
        if (changes.isEmpty()) {
            return AdminResponses.error(request, ResponseCode.INVALID_PARAMETER, "the body names no key");
        }
        try {
            config.update(changes);
        } catch (LiveBrokerConfig.RuntimeKeyException e) {
            return AdminResponses.error(request, ResponseCode.NO_PERMISSION, e.getMessage());
        } catch (ConfigException e) {
            return AdminResponses.error(request, ResponseCode.INVALID_PARAMETER, e.getMessage());
        }
        return AdminResponses.success(request);
    }
}
