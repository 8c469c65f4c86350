package org.modmq.acl;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.Objects;
import org.modmq.remoting.netty.OutgoingRequestHook;
import org.modmq.remoting.protocol.RemotingCommand;

/**
 * Signs a server's own outgoing requests (broker registration, a slave's metadata sync, controller
 * calls) the way a stock client's {@code AclClientRPCHook} does, so that peers with ACL on accept
 * them. Re-signing a request replaces its signature. Immutable and thread-safe.
 */
public final class RequestSigner implements OutgoingRequestHook {

    private final String accessKey;
    private final String secretKey;

    /**
     * @param accessKey the account to sign as
     * @param secretKey its secret
     */
    public RequestSigner(String accessKey, String secretKey) {
        this.accessKey = Objects.requireNonNull(accessKey, "accessKey");
        this.secretKey = Objects.requireNonNull(secretKey, "secretKey");
        if (accessKey.isEmpty() || secretKey.isEmpty()) {
            throw new IllegalArgumentException("accessKey and secretKey must not be empty");
        }
    }

    @Override
    public void beforeSend(String address, RemotingCommand request) {
        request.putExtField(RequestSignature.ACCESS_KEY, accessKey);
        ByteBuf buffer = request.bodyBuf();
        byte[] body = buffer == null ? request.body()
                : ByteBufUtil.getBytes(buffer, buffer.readerIndex(), buffer.readableBytes());
        request.putExtField(RequestSignature.SIGNATURE, RequestSignature.sign(request.extFields(), body, secretKey));
    }

    /** @return the account it signs as */
    public String accessKey() {
        return accessKey;
    }

    /** Leaves the secret out. */
    @Override
    public String toString() {
        return "RequestSigner[accessKey=" + accessKey + "]";
    }
}
