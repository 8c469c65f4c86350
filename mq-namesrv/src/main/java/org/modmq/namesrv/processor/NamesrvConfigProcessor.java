package org.modmq.namesrv.processor;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET_NAMESRV_CONFIG} (body: {@code key=value} lines of every setting) and
 * {@code UPDATE_NAMESRV_CONFIG} (body: {@code key=value} lines; only
 * {@link NamesrvSettings#UPDATABLE_KEYS} may change, anything else is refused and nothing changes).
 * Thread-safe.
 */
public final class NamesrvConfigProcessor {

    private static final Logger LOG = LoggerFactory.getLogger(NamesrvConfigProcessor.class);

    private final NamesrvSettings settings;

    public NamesrvConfigProcessor(NamesrvSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** Registers this processor's codes on {@code server}, to run on {@code executor}. */
    public void registerOn(RemotingServer server, ExecutorService executor) {
        RequestProcessor processor = RequestProcessor.sync(this::process);
        server.registerProcessor(RequestCode.GET_NAMESRV_CONFIG, processor, executor);
        server.registerProcessor(RequestCode.UPDATE_NAMESRV_CONFIG, processor, executor);
    }

    /** Answers one request of this processor's codes. */
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        if (request.code() == RequestCode.GET_NAMESRV_CONFIG) {
            StringBuilder text = new StringBuilder();
            settings.asProperties().forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
            return Replies.success(request, text.toString().getBytes(StandardCharsets.UTF_8));
        }
        if (request.code() != RequestCode.UPDATE_NAMESRV_CONFIG) {
            return Replies.error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported");
        }
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(new String(request.body(), StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
            return Replies.error(request, ResponseCode.SYSTEM_ERROR, "config body is not key=value text: " + e.getMessage());
        }
        Map<String, Boolean> updates = new TreeMap<>();
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            String value = properties.getProperty(key).trim();
            if (!settings.isKnown(key)) {
                return Replies.error(request, ResponseCode.INVALID_PARAMETER, "unknown namesrv key '" + key + "'");
            }
            if (!NamesrvSettings.UPDATABLE_KEYS.contains(key)) {
                return Replies.error(request, ResponseCode.NO_PERMISSION,
                        "namesrv key '" + key + "' cannot be changed at run time; updatable: "
                                + new TreeSet<>(NamesrvSettings.UPDATABLE_KEYS));
            }
            if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                return Replies.error(request, ResponseCode.INVALID_PARAMETER,
                        key + "=" + value + " is not one of [true, false]");
            }
            updates.put(key, Boolean.parseBoolean(value.toLowerCase(Locale.ROOT)));
        }
        settings.update(updates);
        LOG.info("namesrv config updated: {}", updates);
        return Replies.success(request);
    }
}
