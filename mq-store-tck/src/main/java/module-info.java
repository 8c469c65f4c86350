/**
 * The storage conformance kit: abstract JUnit 5 contract tests that every
 * {@link org.modmq.api.spi.storage.StorageBackend} runs from its own test sources by subclassing
 * {@link org.modmq.store.tck.StorageBackendContractTest}. The package is open so that JUnit can
 * inject fields and call test methods when the kit sits on the module path.
 */
module org.modmq.store.tck {
    requires transitive org.modmq.api;
    requires io.netty.buffer;
    requires org.modmq.testkit;
    requires transitive org.junit.jupiter.api;
    requires transitive org.assertj.core;

    exports org.modmq.store.tck;
    opens org.modmq.store.tck;
}
