package org.modmq.api.spi.replication;

/**
 * Keeps replicas' CommitLogs byte-identical to the master's. The store creates one strategy, starts it
 * and then tells it every role change; a strategy never decides a role itself.
 *
 * <ul>
 *   <li>As master it serves replicas from {@link ReplicationContext#log()} and reports what each one
 *       holds to {@link ReplicationContext#progress()}; the store decides from those reports when a
 *       synchronous send is replicated.</li>
 *   <li>As replica it follows the master it was told, appends what it receives through
 *       {@link ReplicatedLog#append} and, where its protocol carries them, records epochs and the
 *       confirm offset and truncates a diverged tail through the log.</li>
 * </ul>
 *
 * <p>Threading: thread-safe. {@link #start()}, the transitions and {@link #close()} are called by the
 * store one at a time (never concurrently with each other); {@link #appended(long)} comes from writer
 * threads at any time. None of them may block on the network.
 */
public interface ReplicationStrategy extends AutoCloseable {

    /** The provider name ({@code pull}, {@code push}). */
    String name();

    /**
     * Binds what replicas dial (every role binds it: a replica may become master) and gets ready for the
     * first transition, which follows at once.
     *
     * @throws java.io.UncheckedIOException when the HA port cannot be bound, naming the address
     */
    void start();

    /**
     * Serve replicas from now on, as master of {@code epoch} (0 in classic HA); stop following. The store
     * has already recorded the epoch in its history. Connections of the previous role are dropped.
     */
    void becomeMaster(int epoch);

    /**
     * Follow the master at {@code masterHaAddress} ({@code host:port}) from now on, in {@code epoch} (0 in
     * classic HA); a null address stops following until the next call. Replica connections served as
     * master are dropped. Called again with another address or epoch, the strategy reconnects.
     *
     * @param brokerId this broker's id, which epoch-aware protocols send to the master
     * @throws org.modmq.api.config.ConfigException when the address is not {@code host:port}
     */
    void becomeReplica(int epoch, String masterHaAddress, long brokerId);

    /** Master: the log now ends at {@code endOffset}; a push strategy sends at once. Never blocks. */
    void appended(long endOffset);

    /** Stops threads and connections. Idempotent. */
    @Override
    void close();
}
