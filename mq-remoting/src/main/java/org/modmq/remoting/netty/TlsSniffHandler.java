package org.modmq.remoting.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * First handler of a server connection: looks at its first byte and either puts an {@code SslHandler}
 * in its own place, steps aside for plain frames, or closes the connection, as the {@link TlsMode} says.
 * A TLS record opens with content type 22 (handshake); a remoting frame opens with the high byte of its
 * length, which is 22 only for frames above 350 MiB, far past any frame limit, so one byte decides.
 * Bytes read meanwhile pass on to whatever replaces it. One instance per connection; event-loop only.
 */
final class TlsSniffHandler extends ByteToMessageDecoder {

    static final String SSL_NAME = "ssl";
    private static final byte TLS_HANDSHAKE = 22;

    private final ServerTls tls;

    TlsSniffHandler(ServerTls tls) {
        this.tls = tls;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return;
        }
        boolean handshake = in.getByte(in.readerIndex()) == TLS_HANDSHAKE;
        if (handshake && tls.mode() == TlsMode.DISABLED) {
            refuse(ctx, in, "it opened a TLS handshake but tls.server.mode is disabled");
        } else if (handshake && !tls.offersTls()) {
            refuse(ctx, in, "it opened a TLS handshake but no certificate is configured (tls.server.certPath, tls.server.keyPath)");
        } else if (handshake) {
            ctx.pipeline().replace(this, SSL_NAME, tls.newHandler(ctx.alloc()));
        } else if (tls.mode() == TlsMode.ENFORCING) {
            refuse(ctx, in, "it is not TLS and tls.server.mode is enforcing");
        } else {
            ctx.pipeline().remove(this);
        }
    }

    private void refuse(ChannelHandlerContext ctx, ByteBuf in, String why) {
        in.skipBytes(in.readableBytes());
        tls.refused(ctx.channel(), why);
        ctx.close();
    }
}
