package org.modmq.broker.runtime;

import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import org.modmq.acl.AclService;
import org.modmq.acl.RequestSigner;
import org.modmq.broker.config.AccessControlConfig;
import org.modmq.remoting.netty.OutgoingRequestHook;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's two ends of ACL 1.0: the check of incoming requests (when {@code aclEnable=true}) and
 * the signature on its own outgoing ones (when {@code innerAccessKey}/{@code innerSecretKey} are set).
 * Stateless.
 */
public final class AccessControl {

    private static final Logger LOG = LoggerFactory.getLogger(AccessControl.class);

    private AccessControl() {
    }

    /**
     * Loads the ACL file and schedules its reload when ACL is on.
     *
     * @return the service to close on shutdown, or empty when ACL is off
     * @throws org.modmq.api.config.ConfigException when ACL is on and the file cannot be used
     */
    public static Optional<AclService> open(AccessControlConfig config, ScheduledExecutorService scheduler) {
        if (!config.enabled()) {
            return Optional.empty();
        }
        AclService service = AclService.load(config.file());
        service.scheduleReload(scheduler, AclService.DEFAULT_RELOAD_PERIOD);
        if (config.innerAccessKey().isEmpty()) {
            LOG.warn("aclEnable=true without innerAccessKey/innerSecretKey: this broker's own requests are not "
                    + "signed, so name servers and masters with ACL on refuse them unless its address is in their "
                    + "globalWhiteRemoteAddresses");
        }
        return Optional.of(service);
    }

    /** @return the hook that signs outgoing requests with the inner credentials, or one that does nothing */
    public static OutgoingRequestHook outgoingHook(AccessControlConfig config) {
        if (config.innerAccessKey().isEmpty() || config.innerSecretKey().isEmpty()) {
            return OutgoingRequestHook.NONE;
        }
        return new RequestSigner(config.innerAccessKey().get(), config.innerSecretKey().get());
    }
}
