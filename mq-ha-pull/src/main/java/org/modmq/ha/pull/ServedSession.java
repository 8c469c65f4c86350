package org.modmq.ha.pull;

/**
 * The master's side of one replica connection, as the {@link HaServer} sees it. Both methods may be called
 * from any thread and return at once.
 */
interface ServedSession {

    /** The log grew or the confirm offset may have risen: send what is due, on the event loop. */
    void wake();

    /** Closes the connection; idempotent. */
    void close();
}
