package org.modmq.acl;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import org.modmq.api.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads {@code plain_acl.yml} and puts new rules in force when its content changes. Each
 * {@link #doWork()} reads the file (it is small) and compares the bytes with the last ones seen, so
 * a rewrite within the file system's timestamp granularity is not missed. A file that is missing,
 * unreadable or does not parse keeps the rules in force and is logged once per distinct content;
 * fixing the file puts the fixed rules in force on the next step.
 *
 * <p>Threading: {@link #doWork()} is synchronized (a scheduler and a test may both step it);
 * {@link #state()} from any thread.
 */
public final class AclFileWatchAgent {

    private static final Logger LOG = LoggerFactory.getLogger(AclFileWatchAgent.class);

    /** Whether the file's current content is what is in force. */
    public enum State {
        /** The rules in force are the file's content. */
        CURRENT,
        /** The file changed into something that cannot be used; the previous rules stay in force. */
        REJECTED
    }

    private final Path file;
    private final PlainAclValidator validator;
    private byte[] lastSeen;
    private String lastProblem;
    private volatile State state = State.CURRENT;

    /**
     * @param file the file the rules in force were read from
     * @param validator where new rules are put in force
     * @param loaded the bytes those rules were parsed from
     */
    public AclFileWatchAgent(Path file, PlainAclValidator validator, byte[] loaded) {
        this.file = Objects.requireNonNull(file, "file");
        this.validator = Objects.requireNonNull(validator, "validator");
        this.lastSeen = Objects.requireNonNull(loaded, "loaded").clone();
    }

    /** @return 1 when the file changed since the last step (whether or not it was taken), else 0 */
    public synchronized int doWork() {
        byte[] content;
        try {
            content = PlainAclFile.readBytes(file);
        } catch (ConfigException e) {
            if (e.getMessage().equals(lastProblem)) {
                return 0;
            }
            // Forget the content: the file coming back, even unchanged, is then read again.
            lastSeen = null;
            lastProblem = e.getMessage();
            transition(State.REJECTED, lastProblem + "; the previous ACL rules stay in force");
            return 1;
        }
        if (Arrays.equals(content, lastSeen)) {
            return 0;
        }
        lastSeen = content;
        try {
            AclRules rules = PlainAclFile.parse(content, file.toString());
            validator.replace(rules);
            lastProblem = null;
            transition(State.CURRENT, "reloaded " + file + ": " + rules.accounts().size() + " account(s), "
                    + rules.globalWhiteRemoteAddresses().size() + " global white address pattern(s)");
        } catch (ConfigException e) {
            lastProblem = e.getMessage();
            transition(State.REJECTED, lastProblem + "; the previous ACL rules stay in force");
        }
        return 1;
    }

    private void transition(State next, String reason) {
        State previous = state;
        state = next;
        if (next == State.REJECTED) {
            LOG.warn("ACL file {} -> {}: {}", previous, next, reason);
        } else {
            LOG.info("ACL file {} -> {}: {}", previous, next, reason);
        }
    }

    /** @return whether the file's content is in force */
    public State state() {
        return state;
    }
}
