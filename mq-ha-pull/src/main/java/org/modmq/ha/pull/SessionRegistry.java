package org.modmq.ha.pull;

/** Where master-side sessions sign in and out; implemented by {@link HaServer}. Thread-safe. */
interface SessionRegistry {

    /**
     * A session of {@code generation} connected; false when that generation is no longer served (the store
     * changed role meanwhile), and then the session closes.
     */
    boolean register(ServedSession session, long generation);

    /** A session closed. */
    void unregister(ServedSession session);

    /** A replica acknowledged something: the confirm offset may have risen for every session. */
    void acknowledged();
}
