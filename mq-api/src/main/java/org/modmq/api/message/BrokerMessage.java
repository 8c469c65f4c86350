package org.modmq.api.message;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;

/**
 * A message as the broker hands it to the store: everything the stored record holds except what the
 * store assigns at append (queue offset, commit-log offset, store timestamp, body CRC).
 *
 * @param topic the topic, 1..32767 UTF-8 bytes
 * @param queueId the queue within the topic
 * @param flag the producer's opaque flag
 * @param body the body as received (possibly compressed, see {@link MessageSysFlag#COMPRESSED});
 *     the record does not copy it, so callers must not change it afterwards
 * @param properties the properties string ({@link MessageProperties#encode(Map)})
 * @param bornTimestamp the producer's clock, ms
 * @param bornHost the producer's socket address
 * @param storeHost the broker's advertised address ({@code brokerIP1:listenPort})
 * @param sysFlag SYSFLAG bits; the store sets the IPv6 host bits itself
 * @param reconsumeTimes the retry count
 * @param preparedTransactionOffset 0 except for committed transactional messages
 */
public record BrokerMessage(String topic, int queueId, int flag, byte[] body, String properties,
                            long bornTimestamp, InetSocketAddress bornHost, InetSocketAddress storeHost,
                            int sysFlag, int reconsumeTimes, long preparedTransactionOffset) {

    public BrokerMessage {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(properties, "properties");
        Objects.requireNonNull(bornHost, "bornHost");
        Objects.requireNonNull(storeHost, "storeHost");
    }

    /** The decoded properties. */
    public Map<String, String> propertyMap() {
        return MessageProperties.decode(properties);
    }

    /** The {@code TAGS} property, or null. */
    public String tags() {
        return propertyMap().get(MessageProperties.TAGS);
    }
}
