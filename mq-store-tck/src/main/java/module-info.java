/** The storage conformance kit. */
module org.modmq.store.tck {
    requires transitive org.modmq.api;
    requires transitive org.junit.jupiter.api;
    requires transitive org.assertj.core;
}
