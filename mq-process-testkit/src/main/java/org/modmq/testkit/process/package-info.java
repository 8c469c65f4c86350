/**
 * Process-level test support for the modules that test modmq from outside: the stock client and tools
 * against the distribution ({@code mq-compat-tests}), classic HA with Apache RocketMQ processes
 * ({@code mq-interop-tests}) and the load generator's smoke test ({@code mq-bench}).
 *
 * <ul>
 *   <li>{@link org.modmq.testkit.process.ChildProcess}: one started process, its output captured to a
 *       file, started only once its TCP port accepts, stopped with SIGTERM and then SIGKILL through its own
 *       {@link java.lang.Process} handle;</li>
 *   <li>{@link org.modmq.testkit.process.Await}: bounded polling that names what it waited for;</li>
 *   <li>{@link org.modmq.testkit.process.FreePort}: free ports on 127.0.0.1 and whether one accepts;</li>
 *   <li>{@link org.modmq.testkit.process.ConfFile}: {@code key=value} configuration files;</li>
 *   <li>{@link org.modmq.testkit.process.BuiltDistribution}: the built distribution named by the
 *       {@code modmq.dist.dir} system property, and the environment its launch scripts read;</li>
 *   <li>{@link org.modmq.testkit.process.TestCertificates}: throw-away TLS certificates and keys as PEM
 *       files, made by the JDK's {@code keytool} when a test asks.</li>
 * </ul>
 *
 * <p>Plain JDK: failures are {@link java.lang.AssertionError}s, which every test framework reports.
 * Everything here is meant for test threads; each type states its own thread-safety.
 */
package org.modmq.testkit.process;
