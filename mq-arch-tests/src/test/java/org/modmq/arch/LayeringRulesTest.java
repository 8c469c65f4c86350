package org.modmq.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

class LayeringRulesTest {

    private final JavaClasses production = ModmqClasses.production();

    @Test
    void importsEveryModule() {
        org.assertj.core.api.Assertions.assertThat(production.containPackage("org.modmq.api.spi")).isTrue();
        org.assertj.core.api.Assertions.assertThat(production.containPackage("org.modmq.store.mmap")).isTrue();
        org.assertj.core.api.Assertions.assertThat(production.containPackage("org.modmq.store.direct")).isTrue();
    }

    /** A plugin may see the API, its own package, the JDK, buffers and logging; nothing else of modmq. */
    static final ArchRule PLUGINS_DEPEND_ONLY_ON_THE_API = classes().that().resideInAnyPackage(ModmqClasses.PLUGIN_PACKAGES)
                .should().onlyDependOnClassesThat().resideInAnyPackage(
                        "org.modmq.api..", "org.modmq.store.mmap..", "org.modmq.store.direct..", "org.modmq.store.faulty..",
                        "org.modmq.ha..",
                        "java..", "javax..", "io.netty.buffer..", "io.netty.util..", "org.slf4j..",
                        "sun.misc..", "com.sun.nio.file..",
                        // replication plugins talk over Netty transport
                        "io.netty.channel..", "io.netty.bootstrap..", "io.netty.handler..")
                .because("a plugin sees the engine only through mq-api");

    /** The core reaches plugins only through ServiceLoader and the SPI types. */
    static final ArchRule CORE_NEVER_DEPENDS_ON_A_PLUGIN = noClasses()
            .that().resideOutsideOfPackages(ModmqClasses.PLUGIN_PACKAGES)
            .should().dependOnClassesThat().resideInAnyPackage(ModmqClasses.PLUGIN_PACKAGES)
            .because("the core reaches plugins only through ServiceLoader and the SPI types");

    @Test
    void rulesCatchViolations() {
        JavaClasses fixtures = new ClassFileImporter().importClasses(
                org.modmq.store.mmap.fixture.PluginReachingIntoStore.class, org.modmq.store.BrokerNamingAPlugin.class);
        assertThatThrownBy(() -> PLUGINS_DEPEND_ONLY_ON_THE_API.check(fixtures)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("PluginReachingIntoStore");
        assertThatThrownBy(() -> CORE_NEVER_DEPENDS_ON_A_PLUGIN.check(fixtures)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("BrokerNamingAPlugin");
        JavaClasses ratisFixture = new ClassFileImporter().importClasses(org.modmq.controller.fixture.CoreNamingRatis.class);
        assertThatThrownBy(() -> RATIS_ONLY_IN_THE_CONTROLLERS_RAFT_PACKAGE.check(ratisFixture))
                .isInstanceOf(AssertionError.class).hasMessageContaining("CoreNamingRatis");
    }

    @Test
    void pluginsDependOnlyOnTheApi() {
        PLUGINS_DEPEND_ONLY_ON_THE_API.check(production);
    }

    @Test
    void noPluginDependsOnAnotherPlugin() {
        noClasses().that().resideInAPackage("org.modmq.store.mmap..")
                .should().dependOnClassesThat().resideInAnyPackage("org.modmq.store.direct..", "org.modmq.ha..")
                .check(production);
        noClasses().that().resideInAPackage("org.modmq.store.direct..")
                .should().dependOnClassesThat().resideInAnyPackage("org.modmq.store.mmap..", "org.modmq.ha..")
                .check(production);
    }

    @Test
    void coreNeverDependsOnAPlugin() {
        CORE_NEVER_DEPENDS_ON_A_PLUGIN.check(production);
    }

    @Test
    void storeDependsOnlyOnTheApi() {
        noClasses().that().resideInAPackage("org.modmq.store..")
                .and().resideOutsideOfPackages(ModmqClasses.PLUGIN_PACKAGES)
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.modmq.remoting..", "org.modmq.namesrv..", "org.modmq.broker..", "org.modmq.controller..")
                .check(production);
    }

    @Test
    void nettyBeyondBuffersOnlyInRemotingAndPlugins() {
        noClasses().that().resideOutsideOfPackages(
                        "org.modmq.remoting..", "org.modmq.namesrv..", "org.modmq.broker..", "org.modmq.controller..",
                        "org.modmq.ha..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.netty.channel..", "io.netty.bootstrap..", "io.netty.handler..", "io.netty.resolver..")
                .because("outside the network layer Netty is limited to ByteBuf")
                .check(production);
    }

    @Test
    void apiDependsOnNoOtherModule() {
        noClasses().that().resideInAPackage("org.modmq.api..")
                .should().dependOnClassesThat().resideOutsideOfPackages(
                        "org.modmq.api..", "java..", "javax.net.ssl..", "javax.crypto..", "io.netty.buffer..", "io.netty.util..",
                        "org.slf4j..")
                .check(production);
    }

    /** Ratis is the controller's replication mechanism and nothing else's: one package sees it. */
    static final ArchRule RATIS_ONLY_IN_THE_CONTROLLERS_RAFT_PACKAGE = noClasses()
            .that().resideOutsideOfPackage("org.modmq.controller.raft..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.ratis..")
            .because("Ratis types stay behind the controller's EventLog, in org.modmq.controller.raft");

    @Test
    void ratisOnlyInTheControllersRaftPackage() {
        RATIS_ONLY_IN_THE_CONTROLLERS_RAFT_PACKAGE.check(production);
        classes().that().resideInAPackage("org.modmq.controller.raft..").should().onlyBeAccessed()
                .byAnyPackage("org.modmq.controller", "org.modmq.controller.raft..")
                .check(production);
    }

    @Test
    void thePrometheusClientStaysInTheMetricsModule() {
        noClasses().that().resideOutsideOfPackage("org.modmq.metrics..")
                .should().dependOnClassesThat().resideInAPackage("io.prometheus..")
                .because("servers and plugins report through mq-api's MetricsSink; mq-metrics implements it")
                .check(production);
        noClasses().that().resideInAPackage("org.modmq.metrics..")
                .should().dependOnClassesThat().resideOutsideOfPackages("org.modmq.metrics..", "org.modmq.api..",
                        "java..", "io.prometheus..", "com.sun.net.httpserver..", "org.slf4j..")
                .check(production);
    }

    @Test
    void logbackStaysInTheLoggingModule() {
        noClasses().that().resideOutsideOfPackage("org.modmq.logging..")
                .should().dependOnClassesThat().resideInAPackage("ch.qos.logback..")
                .because("code logs through slf4j; mq-logging only sets up the distribution's logback")
                .check(production);
        classes().that().resideInAPackage("org.modmq.logging..").should().onlyBeAccessed()
                .byAnyPackage("org.modmq.logging..")
                .because("logback finds the configurator through ServiceLoader; nothing calls it")
                .check(production);
    }

    @Test
    void serversDoNotDependOnEachOther() {
        noClasses().that().resideInAPackage("org.modmq.broker..")
                .should().dependOnClassesThat().resideInAnyPackage("org.modmq.namesrv..", "org.modmq.controller..",
                        "org.modmq.launcher..")
                .check(production);
        noClasses().that().resideInAPackage("org.modmq.namesrv..")
                .should().dependOnClassesThat().resideInAnyPackage("org.modmq.broker..", "org.modmq.controller..",
                        "org.modmq.launcher..")
                .check(production);
        noClasses().that().resideInAPackage("org.modmq.controller..")
                .should().dependOnClassesThat().resideInAnyPackage("org.modmq.broker..", "org.modmq.namesrv..",
                        "org.modmq.store..", "org.modmq.launcher..")
                .check(production);
    }

    @Test
    void aclSeesOnlyRemotingsSeamsAndItsLibraries() {
        noClasses().that().resideInAPackage("org.modmq.acl..")
                .should().dependOnClassesThat().resideOutsideOfPackages("org.modmq.acl..",
                        "org.modmq.remoting.protocol..", "org.modmq.remoting.netty..", "org.modmq.api.config..",
                        "java..", "javax.crypto..", "io.netty.buffer..", "org.slf4j..", "org.yaml.snakeyaml..",
                        "com.fasterxml.jackson.databind..")
                .because("the ACL engine plugs into remoting through RequestCheck and OutgoingRequestHook only")
                .check(production);
        noClasses().that().resideInAPackage("org.modmq.remoting..")
                .should().dependOnClassesThat().resideInAPackage("org.modmq.acl..")
                .check(production);
    }

    @Test
    void controllerStateIsPure() {
        noClasses().that().resideInAnyPackage("org.modmq.controller.state..", "org.modmq.controller.elect..",
                        "org.modmq.controller.liveness..")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "org.modmq.controller.raft..",
                        "org.modmq.controller.processor..", "org.modmq.remoting.netty..")
                .check(production);
    }

    @Test
    void noPackageCycles() {
        slices().matching("org.modmq.(**)").should().beFreeOfCycles().check(production);
    }
}
