package org.modmq.ha.pull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.modmq.api.spi.replication.EpochEntry;

/**
 * A replica played by a plain socket: writes AutoSwitch frames field by field and reads the master's back,
 * as RocketMQ's {@code AutoSwitchHAClient} lays them out.
 */
final class RawAutoSwitchReplica implements AutoCloseable {

    /** A master's handshake answer as read. */
    record Answer(int state, int bodySize, long maxOffset, int lastEpoch, List<EpochEntry> entries) {
    }

    /** A master's transfer frame as read. */
    record Frame(int state, long offset, int epoch, long epochStart, long confirm, byte[] body) {
    }

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    RawAutoSwitchReplica(InetSocketAddress master) throws IOException {
        socket = new Socket(master.getAddress(), master.getPort());
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    RawAutoSwitchReplica handshake(boolean syncFromLastFile, boolean asyncLearner, long brokerId) throws IOException {
        out.writeInt(1);
        out.writeShort(syncFromLastFile ? 1 : 0);
        out.writeShort(asyncLearner ? 1 : 0);
        out.writeLong(brokerId);
        out.flush();
        return this;
    }

    RawAutoSwitchReplica report(long offset) throws IOException {
        out.writeInt(2);
        out.writeLong(offset);
        out.flush();
        return this;
    }

    RawAutoSwitchReplica raw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    Answer readAnswer() throws IOException {
        int state = in.readInt();
        int bodySize = in.readInt();
        long max = in.readLong();
        int lastEpoch = in.readInt();
        List<EpochEntry> entries = new ArrayList<>();
        for (int i = 0; i < bodySize / 12; i++) {
            entries.add(new EpochEntry(in.readInt(), in.readLong()));
        }
        return new Answer(state, bodySize, max, lastEpoch, entries);
    }

    Frame readFrame() throws IOException {
        int state = in.readInt();
        int size = in.readInt();
        long offset = in.readLong();
        int epoch = in.readInt();
        long epochStart = in.readLong();
        long confirm = in.readLong();
        byte[] body = new byte[size];
        in.readFully(body);
        return new Frame(state, offset, epoch, epochStart, confirm, body);
    }

    /** Reads until the master closes the connection; false when it stays open for {@code millis}. */
    boolean closedWithin(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            byte[] sink = new byte[4096];
            int read;
            do {
                read = in.read(sink);
            } while (read >= 0);
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
