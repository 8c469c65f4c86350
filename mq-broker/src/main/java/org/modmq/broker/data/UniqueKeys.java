package org.modmq.broker.data;

import java.net.InetAddress;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Generates the {@code UNIQ_KEY} the broker adds when a producer sent none: uppercase hex of the broker
 * IP (4 or 16 bytes), int16 process id, int32 per-instance hash, int32 low bits of the clock (ms) and an
 * int16 counter (docs/protocol.md section 5.5; clients treat it as opaque). Thread-safe.
 */
final class UniqueKeys {

    private final byte[] prefix;
    private final Clock clock;
    private final AtomicInteger counter = new AtomicInteger();

    UniqueKeys(InetAddress address, Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        byte[] ip = address.getAddress();
        prefix = new byte[ip.length + 6];
        System.arraycopy(ip, 0, prefix, 0, ip.length);
        long pid = ProcessHandle.current().pid();
        int hash = System.identityHashCode(this);
        prefix[ip.length] = (byte) (pid >> 8);
        prefix[ip.length + 1] = (byte) pid;
        for (int i = 0; i < 4; i++) {
            prefix[ip.length + 2 + i] = (byte) (hash >> (24 - 8 * i));
        }
    }

    String next() {
        int time = (int) clock.millis();
        int count = counter.getAndIncrement();
        byte[] id = new byte[prefix.length + 6];
        System.arraycopy(prefix, 0, id, 0, prefix.length);
        int at = prefix.length;
        for (int i = 0; i < 4; i++) {
            id[at + i] = (byte) (time >> (24 - 8 * i));
        }
        id[at + 4] = (byte) (count >> 8);
        id[at + 5] = (byte) count;
        return HexFormat.of().withUpperCase().formatHex(id);
    }
}
