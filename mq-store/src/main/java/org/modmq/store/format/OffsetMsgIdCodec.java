package org.modmq.store.format;

import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.Objects;

/** offsetMsgId: uppercase hex of store IP + int32 port + int64 commit-log offset. Thread-safe. */
public final class OffsetMsgIdCodec {

    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private OffsetMsgIdCodec() {
    }

    public static String encode(InetSocketAddress storeHost, long commitLogOffset) {
        Objects.requireNonNull(storeHost, "storeHost");
        byte[] ip = storeHost.getAddress() == null ? new byte[4] : storeHost.getAddress().getAddress();
        byte[] out = new byte[ip.length + 12];
        System.arraycopy(ip, 0, out, 0, ip.length);
        putInt(out, ip.length, storeHost.getPort());
        long value = commitLogOffset;
        for (int i = out.length - 1; i >= ip.length + 4; i--) {
            out[i] = (byte) value;
            value >>>= 8;
        }
        return HEX.formatHex(out);
    }

    private static void putInt(byte[] out, int at, int value) {
        out[at] = (byte) (value >>> 24);
        out[at + 1] = (byte) (value >>> 16);
        out[at + 2] = (byte) (value >>> 8);
        out[at + 3] = (byte) value;
    }
}
