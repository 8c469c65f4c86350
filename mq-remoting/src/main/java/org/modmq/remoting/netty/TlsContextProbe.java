package org.modmq.remoting.netty;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * Proves that a server context can complete a handshake: an in-memory TLS handshake between an engine of
 * the context and a JDK client engine that trusts any certificate. Building a context from a certificate
 * and a key that do not belong together succeeds (the key is only used when a handshake signs with it);
 * this finds the mismatch before the context is put in force. Stateless.
 */
final class TlsContextProbe {

    /** Enough round trips for any TLS 1.2 or 1.3 handshake; a loop beyond it is a bug, not a slow peer. */
    private static final int MAX_STEPS = 64;

    private TlsContextProbe() {
    }

    /**
     * @param server a server context without client authentication (the probe presents no certificate)
     * @throws SSLException when the handshake fails, naming why
     */
    static void handshake(SslContext server) throws SSLException {
        SSLEngine serverEngine = server.newEngine(ByteBufAllocator.DEFAULT);
        SSLEngine clientEngine = trustingClient().createSSLEngine("127.0.0.1", 0);
        clientEngine.setUseClientMode(true);
        int packet = Math.max(serverEngine.getSession().getPacketBufferSize(),
                clientEngine.getSession().getPacketBufferSize());
        int application = Math.max(serverEngine.getSession().getApplicationBufferSize(),
                clientEngine.getSession().getApplicationBufferSize());
        ByteBuffer toServer = ByteBuffer.allocate(packet * 4);
        ByteBuffer toClient = ByteBuffer.allocate(packet * 4);
        ByteBuffer sink = ByteBuffer.allocate(application * 2);
        try {
            clientEngine.beginHandshake();
            serverEngine.beginHandshake();
            for (int step = 0; step < MAX_STEPS; step++) {
                boolean clientDone = step(clientEngine, toClient, toServer, sink);
                boolean serverDone = step(serverEngine, toServer, toClient, sink);
                if (clientDone && serverDone) {
                    return;
                }
            }
            throw new SSLException("the handshake did not finish within " + MAX_STEPS + " steps");
        } finally {
            clientEngine.closeOutbound();
            serverEngine.closeOutbound();
        }
    }

    /** One move of {@code engine}; @return whether its handshake is over */
    private static boolean step(SSLEngine engine, ByteBuffer in, ByteBuffer out, ByteBuffer sink) throws SSLException {
        HandshakeStatus status = engine.getHandshakeStatus();
        switch (status) {
            case NEED_WRAP -> engine.wrap(ByteBuffer.allocate(0), out);
            case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                in.flip();
                try {
                    if (in.hasRemaining() || status == HandshakeStatus.NEED_UNWRAP_AGAIN) {
                        sink.clear();
                        engine.unwrap(in, sink);
                    }
                } finally {
                    in.compact();
                }
            }
            case NEED_TASK -> {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
            }
            default -> {
                return true;
            }
        }
        return false;
    }

    private static SSLContext trustingClient() throws SSLException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            // Any certificate: only the signature over the handshake is being checked.
            context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new SSLException("the JDK cannot make a TLS client context", e);
        }
    }
}
