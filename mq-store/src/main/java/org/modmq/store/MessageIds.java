package org.modmq.store;

import java.net.InetSocketAddress;
import org.modmq.store.format.OffsetMsgIdCodec;

/** Message ids the broker answers with. Stateless and thread-safe. */
public final class MessageIds {

    private MessageIds() {
    }

    /**
     * The offsetMsgId: uppercase hex of the store host's IP (4 or 16 bytes), its port (int32) and the
     * record's commit-log offset (int64): 32 hex characters for IPv4, 56 for IPv6.
     */
    public static String offsetMsgId(InetSocketAddress storeHost, long commitLogOffset) {
        return OffsetMsgIdCodec.encode(storeHost, commitLogOffset);
    }
}
