package org.modmq.fuzz;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * One plain TCP connection to a remoting server that sends any bytes, well-formed or not, and reads
 * back whole frames, telling an answer from a closed connection from silence. Blocking; not
 * thread-safe (one fuzz run drives it).
 */
public final class RawConnection implements AutoCloseable {

    /** What a read ended with. */
    public sealed interface Received permits Frame, Closed, Silent {
    }

    /**
     * A whole frame.
     *
     * @param serializeType its type byte
     * @param header        header bytes
     * @param body          body bytes
     */
    public record Frame(int serializeType, byte[] header, byte[] body) implements Received {
    }

    /**
     * The server closed the connection (end of stream or reset).
     *
     * @param cause why, as text
     */
    public record Closed(String cause) implements Received {
    }

    /** Nothing complete arrived before the deadline. */
    public record Silent() implements Received {
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private byte[] pending = new byte[8192];
    private int pendingLength;
    private boolean closedByPeer;

    private RawConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /**
     * @param host          a loopback address, normally
     * @param port          the server's port
     * @param timeoutMillis connect timeout
     * @throws IOException when the server does not accept
     */
    public static RawConnection open(String host, int port, int timeoutMillis) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            return new RawConnection(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** @return whether the peer has closed (seen by a read or a failed write) */
    public boolean closedByPeer() {
        return closedByPeer;
    }

    /**
     * Writes {@code bytes}.
     *
     * @return false when the connection is closed (the peer reset it)
     */
    public boolean send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return true;
        } catch (IOException e) {
            closedByPeer = true;
            return false;
        }
    }

    /** Half-closes: the server sees end of stream, as from a client that gave up mid-frame. */
    public void shutdownOutput() {
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            closedByPeer = true;
        }
    }

    /**
     * Reads until a whole frame is there, the server closes, or {@code deadlineNanos} (of
     * {@link System#nanoTime()}) passes. Bytes of a frame not yet complete are kept for the next call.
     */
    public Received read(long deadlineNanos) {
        while (true) {
            Frame frame = takeFrame();
            if (frame != null) {
                return frame;
            }
            if (closedByPeer) {
                return new Closed("closed earlier");
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return new Silent();
            }
            try {
                socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(left))));
                if (pendingLength == pending.length) {
                    pending = Arrays.copyOf(pending, pending.length * 2);
                }
                int read = in.read(pending, pendingLength, pending.length - pendingLength);
                if (read < 0) {
                    closedByPeer = true;
                    return new Closed("end of stream");
                }
                pendingLength += read;
            } catch (SocketTimeoutException e) {
                return new Silent();
            } catch (IOException e) {
                closedByPeer = true;
                return new Closed(e.toString());
            }
        }
    }

    private Frame takeFrame() {
        if (pendingLength < 8) {
            return null;
        }
        int length = FrameShape.readInt(pending, 0);
        if (length < 4 || pendingLength < 4L + length) {
            if (length >= 4 && 4L + length > pending.length) {
                pending = Arrays.copyOf(pending, 4 + length);
            }
            return null;
        }
        int word = FrameShape.readInt(pending, 4);
        int headerLength = Math.min(word & 0xFFFFFF, length - 4);
        byte[] header = Arrays.copyOfRange(pending, 8, 8 + headerLength);
        byte[] body = Arrays.copyOfRange(pending, 8 + headerLength, 4 + length);
        System.arraycopy(pending, 4 + length, pending, 0, pendingLength - 4 - length);
        pendingLength -= 4 + length;
        return new Frame(word >>> 24, header, body);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing a socket the peer already reset: nothing left to release.
            closedByPeer = true;
        }
    }
}
