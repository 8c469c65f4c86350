package org.modmq.acl;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestCheck;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ACL as a remoting server's {@link RequestCheck}. A refused request is answered as a RocketMQ
 * broker with ACL 1.0 answers it: code 1 ({@code SYSTEM_ERROR}) and the remark
 * {@code org.apache.rocketmq.acl.common.AclException: <reason>} (RocketMQ appends a stack frame after a
 * comma, which modmq leaves out). Refusals are logged at WARN at most once a second, the rest at DEBUG,
 * so a misconfigured client cannot flood the log. Thread-safe.
 */
public final class AclRequestCheck implements RequestCheck {

    /** What the remark of a refusal starts with: RocketMQ's exception class name. */
    public static final String REMARK_PREFIX = "org.apache.rocketmq.acl.common.AclException: ";

    private static final Logger LOG = LoggerFactory.getLogger(AclRequestCheck.class);

    private final PlainAclValidator validator;
    private final LongSupplier nanoTime;
    private final AtomicLong lastWarn = new AtomicLong(Long.MIN_VALUE);

    /** @param validator the rules to check against */
    public AclRequestCheck(PlainAclValidator validator) {
        this(validator, System::nanoTime);
    }

    /** @param nanoTime a monotonic clock, for the log throttle only */
    AclRequestCheck(PlainAclValidator validator, LongSupplier nanoTime) {
        this.validator = Objects.requireNonNull(validator, "validator");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    @Override
    public void check(RemotingChannel channel, RemotingCommand request) {
        String address = ipOf(channel.remoteAddress());
        try {
            validator.validate(new AccessRequest(request.code(), request.version(), request.extFields(),
                    request.body(), address));
        } catch (AclDeniedException e) {
            log(request, address, e.getMessage());
            throw new ResponseCodeException(ResponseCode.SYSTEM_ERROR, REMARK_PREFIX + e.getMessage());
        }
    }

    private void log(RemotingCommand request, String address, String reason) {
        long now = nanoTime.getAsLong();
        long last = lastWarn.get();
        boolean warn = (last == Long.MIN_VALUE || now - last >= TimeUnit.SECONDS.toNanos(1))
                && lastWarn.compareAndSet(last, now);
        if (warn) {
            LOG.warn("ACL refused request code {} from {} (accessKey {}): {}", request.code(), address,
                    request.extField(RequestSignature.ACCESS_KEY), reason);
        } else {
            LOG.debug("ACL refused request code {} from {} (accessKey {}): {}", request.code(), address,
                    request.extField(RequestSignature.ACCESS_KEY), reason);
        }
    }

    private static String ipOf(InetSocketAddress address) {
        if (address == null) {
            return null;
        }
        return address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
    }
}
