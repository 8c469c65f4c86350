/**
 * Process-level test support (see the package documentation). Plain JDK. A named module so that kits
 * compiled as modules (the replication conformance kit) can require it; the black-box test modules use
 * it from the class path, where this descriptor is simply not read.
 */
module org.modmq.testkit.process {
    exports org.modmq.testkit.process;
}
