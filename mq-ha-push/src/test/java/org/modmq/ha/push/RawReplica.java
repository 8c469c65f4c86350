package org.modmq.ha.push;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.List;
import org.modmq.api.spi.replication.EpochEntry;
import org.modmq.ha.push.wire.Hello;
import org.modmq.ha.push.wire.PushFrame;
import org.modmq.ha.push.wire.PushFrameLayout;
import org.modmq.ha.push.wire.Welcome;

/** A hand-driven replica speaking the push protocol over a plain socket; it acknowledges only when told. */
final class RawReplica implements AutoCloseable {

    /** One frame as read; for DATA the body still holds the 20-byte prefix. */
    record Frame(byte type, long offset, byte[] body) {

        int payloadLength() {
            return body.length - PushFrameLayout.DATA_PREFIX_LENGTH;
        }

        int dataEpoch() {
            return ByteBuffer.wrap(body).getInt(PushFrameLayout.DATA_EPOCH);
        }

        long dataEpochStart() {
            return ByteBuffer.wrap(body).getLong(PushFrameLayout.DATA_EPOCH_START);
        }

        long confirm() {
            return ByteBuffer.wrap(body).getLong(type == PushFrameLayout.DATA ? PushFrameLayout.DATA_CONFIRM
                    : PushFrameLayout.HEARTBEAT_CONFIRM);
        }

        byte refusalCode() {
            return body[0];
        }
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

    /** A HELLO of an epoch-less, empty replica with broker id 1. */
    void hello(long maxOffset) throws IOException {
        hello(new Hello(1, 0, maxOffset, maxOffset, 0, 0, List.of()));
    }

    /** A HELLO of an empty replica of {@code brokerId} following in {@code epoch} with history {@code epochs}. */
    void hello(long brokerId, int epoch, List<EpochEntry> epochs) throws IOException {
        hello(new Hello(brokerId, epoch, 0, 0, 0, 0, epochs));
    }

    void hello(Hello hello) throws IOException {
        ByteBuf frame = hello.encode(UnpooledByteBufAllocator.DEFAULT);
        try {
            write(frame);
        } finally {
            frame.release();
        }
    }

    void ack(long offset) throws IOException {
        ByteBuf frame = PushFrameLayout.ack(UnpooledByteBufAllocator.DEFAULT, offset);
        try {
            write(frame);
        } finally {
            frame.release();
        }
    }

    /** Writes raw bytes, for malformed input. */
    void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    private void write(ByteBuf frame) throws IOException {
        byte[] bytes = new byte[frame.readableBytes()];
        frame.getBytes(frame.readerIndex(), bytes);
        writeRaw(bytes);
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

    /** The next frame, which must come within 10 s. */
    Frame next() throws IOException {
        Frame frame = read(10_000);
        if (frame == null) {
            throw new AssertionError("no frame within 10 s");
        }
        return frame;
    }

    /** The WELCOME the master answers the HELLO with (fails on anything else). */
    Welcome welcome() throws IOException {
        Frame frame = next();
        if (frame.type() != PushFrameLayout.WELCOME) {
            throw new AssertionError("expected WELCOME, got type " + frame.type() + " " + new String(frame.body(),
                    java.nio.charset.StandardCharsets.UTF_8));
        }
        ByteBuf body = Unpooled.wrappedBuffer(frame.body());
        PushFrame decoded = new PushFrame(frame.type(), frame.offset(), body);
        try {
            return Welcome.decode(decoded);
        } finally {
            decoded.release();
        }
    }

    /**
     * Reads DATA frames (skipping heartbeats) until {@code bytes} payload bytes arrived; fails on a frame
     * that does not continue at {@code from} or when nothing arrives for 10 s.
     *
     * @return the offset after the last byte read
     */
    long readData(long from, long bytes) throws IOException {
        long at = from;
        while (at < from + bytes) {
            Frame frame = next();
            if (frame.type() != PushFrameLayout.DATA) {
                continue;
            }
            if (frame.offset() != at) {
                throw new AssertionError("data frame at " + frame.offset() + ", expected " + at);
            }
            at += frame.payloadLength();
        }
        return at;
    }

    /** The payload bytes of DATA frames that arrive within {@code quietMillis} of each other (none: 0). */
    long drainData(int quietMillis) throws IOException {
        long total = 0;
        Frame frame;
        while ((frame = read(quietMillis)) != null) {
            if (frame.type() == PushFrameLayout.DATA) {
                total += frame.payloadLength();
            }
        }
        return total;
    }

    /** Whether the master closed the connection within {@code timeoutMillis} (frames before are skipped). */
    boolean closedByPeer(int timeoutMillis) throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        try {
            while (System.nanoTime() < deadline) {
                if (read(Math.max(1, (int) ((deadline - System.nanoTime()) / 1_000_000))) == null) {
                    return false;
                }
            }
            return false;
        } catch (EOFException | java.net.SocketException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
