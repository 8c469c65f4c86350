package org.modmq.jmh;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.MessageProperties;

/**
 * Builds producer-like messages for the benchmarks: a fixed random body of {@value #BODY_BYTES} bytes, a
 * {@code TAGS} property and a fresh 32-hex-digit {@code UNIQ_KEY} per message (so the index does real
 * work), as a RocketMQ producer sends them.
 *
 * <p>Thread-safe: {@link #next} may be called from many benchmark threads.
 */
final class BenchmarkMessages {

    /** Body size: 1 KiB. */
    static final int BODY_BYTES = 1024;
    /** The topic every benchmark writes. */
    static final String TOPIC = "BenchTopic";
    /** The tag every message carries. */
    static final String TAG = "TagA";

    private static final InetSocketAddress BORN_HOST =
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 52_311);
    private static final InetSocketAddress STORE_HOST =
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 10_911);

    // The record does not copy the body and nobody changes it, so all messages share one array.
    private final byte[] body;
    private final String keyPrefix;
    private final AtomicLong sequence = new AtomicLong();

    BenchmarkMessages() {
        SplittableRandom random = new SplittableRandom(42);
        body = new byte[BODY_BYTES];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) random.nextInt(256);
        }
        keyPrefix = hex16(random.nextLong());
    }

    /** A new message for queue {@code queueId} of {@link #TOPIC} with a unique UNIQ_KEY. */
    BrokerMessage next(int queueId) {
        Map<String, String> properties = new LinkedHashMap<>(4);
        properties.put(MessageProperties.TAGS, TAG);
        properties.put(MessageProperties.UNIQ_KEY, keyPrefix + hex16(sequence.getAndIncrement()));
        return new BrokerMessage(TOPIC, queueId, 0, body, MessageProperties.encode(properties),
                System.currentTimeMillis(), BORN_HOST, STORE_HOST, 0, 0, 0L);
    }

    private static String hex16(long value) {
        char[] digits = new char[16];
        for (int i = 15; i >= 0; i--) {
            digits[i] = Character.forDigit((int) (value & 0xF), 16);
            value >>>= 4;
        }
        return new String(digits).toUpperCase(java.util.Locale.ROOT);
    }
}
