/** The backend-agnostic store: CommitLog, ConsumeQueues, index, dispatch, recovery, retention, flush policies. */
module org.modmq.store {
    requires transitive org.modmq.api;
    requires org.slf4j;
}
