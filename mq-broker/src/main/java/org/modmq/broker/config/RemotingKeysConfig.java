package org.modmq.broker.config;

import java.util.Optional;
import org.modmq.remoting.netty.RemotingServerKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the remoting bounds of {@link RemotingServerKeys} from {@code broker.conf}; they apply to the
 * main port and the VIP port alike. Stateless.
 */
final class RemotingKeysConfig {

    private static final Logger LOG = LoggerFactory.getLogger(RemotingKeysConfig.class);
    /** Room a send frame needs beside the body: header JSON and the properties (RocketMQ's 64 KiB). */
    private static final int FRAME_HEADROOM = 64 * 1024;

    private RemotingKeysConfig() {
    }

    static RemotingServerKeys.Limits read(ConfigReader reader, int maxMessageSize) {
        for (String key : RemotingServerKeys.KEYS) {
            reader.raw(key);
        }
        RemotingServerKeys.Limits limits = RemotingServerKeys.parse(
                key -> Optional.ofNullable(reader.rawValue(key)), reader.source());
        limits.asProperties().forEach(reader::remember);
        if ((long) maxMessageSize + FRAME_HEADROOM > limits.maxFrameBytes()) {
            LOG.warn("maxMessageSize={} in {} cannot be reached: a send frame is at most {}={} bytes, which leaves "
                    + "room for bodies of about {} bytes", maxMessageSize, reader.source(),
                    RemotingServerKeys.MAX_FRAME_BYTES, limits.maxFrameBytes(), limits.maxFrameBytes() - FRAME_HEADROOM);
        }
        return limits;
    }
}
