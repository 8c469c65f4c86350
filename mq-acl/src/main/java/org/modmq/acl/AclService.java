package org.modmq.acl;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.modmq.api.config.ConfigException;
import org.modmq.remoting.netty.RequestCheck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ACL 1.0 for one server: the rules of one {@code plain_acl.yml}, the {@link RequestCheck} to set on
 * its remoting servers and the agent that reloads the file. Built once at start-up with
 * {@link #load}; {@link #scheduleReload} hands the agent to a scheduler; {@link #close()} stops it.
 *
 * <p>Threading: all methods are thread-safe; close is idempotent.
 */
public final class AclService implements AutoCloseable {

    /** How often the file is read for changes when the owner has no other wish. */
    public static final Duration DEFAULT_RELOAD_PERIOD = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(AclService.class);

    private final Path file;
    private final PlainAclValidator validator;
    private final AclFileWatchAgent agent;
    private final AclRequestCheck check;
    private ScheduledFuture<?> reload;
    private boolean closed;

    private AclService(Path file, PlainAclValidator validator, AclFileWatchAgent agent) {
        this.file = file;
        this.validator = validator;
        this.agent = agent;
        this.check = new AclRequestCheck(validator);
    }

    /**
     * Reads the rules for a broker or a name server (admin-only requests: {@link AdminCodes}).
     *
     * @param file the {@code plain_acl.yml}
     * @return the service
     * @throws ConfigException naming the file when it is missing, unreadable or does not parse: a
     *     server asked to check access does not start without rules
     */
    public static AclService load(Path file) {
        return load(file, request -> AdminCodes.needsAdmin(request.code()));
    }

    /**
     * Reads the rules for a server with its own admin-only requests (a controller passes
     * {@link ControllerAdminRequests#needsAdmin}).
     *
     * @param file the {@code plain_acl.yml}
     * @param adminOnly which requests need an account with {@code admin: true}
     * @return the service
     * @throws ConfigException naming the file when it is missing, unreadable or does not parse
     */
    public static AclService load(Path file, Predicate<AccessRequest> adminOnly) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(adminOnly, "adminOnly");
        byte[] content = PlainAclFile.readBytes(file);
        AclRules rules = PlainAclFile.parse(content, file.toString());
        PlainAclValidator validator = new PlainAclValidator(rules, adminOnly);
        LOG.info("ACL on: {} with {} account(s) and {} global white address pattern(s)", file,
                rules.accounts().size(), rules.globalWhiteRemoteAddresses().size());
        return new AclService(file, validator, new AclFileWatchAgent(file, validator, content));
    }

    /** @return the check to set on every remoting server of the process */
    public RequestCheck requestCheck() {
        return check;
    }

    /** @return the rules and their decisions */
    public PlainAclValidator validator() {
        return validator;
    }

    /** @return the agent that reloads the file (tests step it) */
    public AclFileWatchAgent reloadAgent() {
        return agent;
    }

    /** @return the file the rules come from */
    public Path file() {
        return file;
    }

    /**
     * Runs the reload agent on {@code scheduler} every {@code period}; a failing step is logged and
     * the next one runs as planned.
     */
    public synchronized void scheduleReload(ScheduledExecutorService scheduler, Duration period) {
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(period, "period");
        if (closed || reload != null) {
            throw new IllegalStateException(closed ? "ACL service is closed" : "reload already scheduled");
        }
        reload = scheduler.scheduleWithFixedDelay(() -> {
            try {
                agent.doWork();
            } catch (RuntimeException e) {
                LOG.warn("ACL file {} reload failed; the rules in force stay", file, e);
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the reloads. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        if (reload != null) {
            reload.cancel(false);
        }
    }
}
