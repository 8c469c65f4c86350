package org.modmq.ha.push;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import org.modmq.ha.push.wire.Hello;
import org.modmq.ha.push.wire.PushFrame;
import org.modmq.ha.push.wire.PushFrameLayout;

/** A hand-driven master over a plain server socket on 127.0.0.1, for feeding a replica bad frames. */
final class RawMaster implements AutoCloseable {

    private final ServerSocket server;

    RawMaster() throws IOException {
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** The next replica connection, which must arrive within 10 s. */
    Connection accept() throws IOException {
        server.setSoTimeout(10_000);
        return new Connection(server.accept());
    }

    /** One accepted replica connection. */
    static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final DataInputStream in;
        private final OutputStream out;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(10_000);
            this.in = new DataInputStream(socket.getInputStream());
            this.out = socket.getOutputStream();
        }

        /** Reads the replica's HELLO. */
        Hello hello() throws IOException {
            byte type = in.readByte();
            long offset = in.readLong();
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            PushFrame frame = new PushFrame(type, offset, Unpooled.wrappedBuffer(body));
            try {
                return Hello.decode(frame);
            } finally {
                frame.release();
            }
        }

        /** Writes {@code frame} and releases it. */
        void send(ByteBuf frame) throws IOException {
            try {
                byte[] bytes = new byte[frame.readableBytes()];
                frame.getBytes(frame.readerIndex(), bytes);
                out.write(bytes);
                out.flush();
            } finally {
                frame.release();
            }
        }

        /** A DATA frame at {@code offset} carrying {@code payload}. */
        void sendData(long offset, int epoch, long epochStart, long confirm, byte[] payload) throws IOException {
            ByteBuf frame = PushFrameLayout.dataHeader(UnpooledByteBufAllocator.DEFAULT, offset, payload.length, epoch, epochStart,
                    confirm).writeBytes(payload);
            send(frame);
        }

        /** Whether the replica closed the connection within 10 s (frames it sends before are skipped). */
        boolean closedByPeer() throws IOException {
            try {
                while (true) {
                    in.readByte();
                    in.skipNBytes(8);
                    in.skipNBytes(in.readInt());
                }
            } catch (EOFException | SocketException e) {
                return true;
            } catch (SocketTimeoutException e) {
                return false;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
