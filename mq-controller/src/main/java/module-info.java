/**
 * The modmq controller: RocketMQ 5's controller for broker sets in controller mode (broker ids, master
 * election, sync-state sets and their epochs), replicated between controller peers with Apache Ratis
 * and served over RocketMQ's remoting protocol (request codes 1001-1013 and 904), optionally behind ACL 1.0
 * ({@code org.modmq.acl}).
 *
 * <p>{@link org.modmq.controller.ControllerServer} runs one peer; {@link org.modmq.controller.ControllerConfig}
 * reads its settings. Ratis types stay inside {@code org.modmq.controller.raft}.
 */
module org.modmq.controller {
    requires transitive org.modmq.remoting;
    requires org.modmq.acl;
    requires org.apache.ratis;
    requires com.fasterxml.jackson.databind;
    requires org.slf4j;

    exports org.modmq.controller;

    opens org.modmq.controller.body to com.fasterxml.jackson.databind;
    opens org.modmq.controller.state to com.fasterxml.jackson.databind;
}
