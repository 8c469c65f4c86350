package org.modmq.broker.client;

import java.util.Objects;
import org.modmq.remoting.netty.RemotingChannel;

/**
 * One client connection as registered by its heartbeats. Immutable; a newer heartbeat replaces it.
 *
 * @param channel the connection (identity key)
 * @param clientId {@code clientIP@instanceName}
 * @param language the client's language name, e.g. {@code JAVA}
 * @param version the client's version ordinal
 * @param lastUpdateMillis wall-clock ms of the last heartbeat
 */
public record ClientChannelInfo(RemotingChannel channel, String clientId, String language, int version,
                                long lastUpdateMillis) {

    public ClientChannelInfo {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(language, "language");
    }
}
