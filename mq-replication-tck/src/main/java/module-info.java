/**
 * The replication conformance kit: abstract JUnit 5 contract tests that every
 * {@link org.modmq.api.spi.replication.ReplicationStrategy} runs from its own test sources by subclassing
 * {@link org.modmq.replication.tck.ReplicationStrategyContractTest}. The strategy is driven through the SPI
 * only, over in-memory logs ({@link org.modmq.replication.tck.MemoryReplicatedLog}) and loopback sockets.
 * The package is open so that JUnit can inject fields and call test methods when the kit sits on the module
 * path.
 */
module org.modmq.replication.tck {
    requires transitive org.modmq.api;
    requires io.netty.buffer;
    requires org.modmq.testkit;
    requires org.modmq.testkit.process;
    requires transitive org.junit.jupiter.api;
    requires org.junit.jupiter.params;
    requires transitive org.assertj.core;

    exports org.modmq.replication.tck;
    opens org.modmq.replication.tck;
}
