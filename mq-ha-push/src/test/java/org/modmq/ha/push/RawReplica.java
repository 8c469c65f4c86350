package org.modmq.ha.push;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.modmq.ha.push.wire.PushFrameLayout;

/** A hand-driven replica speaking the push protocol over a plain socket; it acknowledges only when told. */
final class RawReplica implements AutoCloseable {

    record Frame(byte type, long offset, byte[] body) {
    }

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    RawReplica(InetSocketAddress master) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", master.getPort()), 5_000);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    void hello(long maxOffset) throws IOException {
        out.writeByte(PushFrameLayout.HELLO);
        out.writeLong(maxOffset);
        out.writeInt(PushFrameLayout.HELLO_BODY_LENGTH);
        out.writeInt(PushFrameLayout.MAGIC);
        out.writeShort(PushFrameLayout.VERSION);
        out.writeInt(0);
        out.writeInt(0);
        out.flush();
    }

    void ack(long offset) throws IOException {
        out.writeByte(PushFrameLayout.ACK);
        out.writeLong(offset);
        out.writeInt(0);
        out.flush();
    }

    /** The next frame, or null when none starts within {@code timeoutMillis}. */
    Frame read(int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        byte type;
        try {
            type = in.readByte();
        } catch (SocketTimeoutException e) {
            return null;
        }
        socket.setSoTimeout(10_000);
        long offset = in.readLong();
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        return new Frame(type, offset, body);
    }

    /**
     * Reads DATA frames (skipping heartbeats) until {@code bytes} body bytes arrived; fails on a frame
     * that does not continue at {@code from} or when nothing arrives for 10 s.
     *
     * @return the offset after the last byte read
     */
    long readData(long from, long bytes) throws IOException {
        long at = from;
        while (at < from + bytes) {
            Frame frame = read(10_000);
            if (frame == null) {
                throw new AssertionError("no frame within 10 s; got " + (at - from) + " of " + bytes + " bytes");
            }
            if (frame.type() != PushFrameLayout.DATA) {
                continue;
            }
            if (frame.offset() != at) {
                throw new AssertionError("data frame at " + frame.offset() + ", expected " + at);
            }
            at += frame.body().length;
        }
        return at;
    }

    /** The body bytes of DATA frames that arrive within {@code quietMillis} of each other (none: 0). */
    long drainData(int quietMillis) throws IOException {
        long total = 0;
        Frame frame;
        while ((frame = read(quietMillis)) != null) {
            if (frame.type() == PushFrameLayout.DATA) {
                total += frame.body().length;
            }
        }
        return total;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
