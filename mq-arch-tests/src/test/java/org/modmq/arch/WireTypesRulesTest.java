package org.modmq.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The JSON bodies that broker and name server share, and the JSON helper, have one home each, so
 * that a fix to a wire shape cannot land in one server and miss the other.
 */
class WireTypesRulesTest {

    static final String WIRE_TYPES_HOME = "org.modmq.remoting.protocol.body";
    static final Set<String> SHARED_WIRE_TYPES = Set.of(
            "TopicConfig", "DataVersion", "Perm", "TopicConfigSerializeWrapper", "RegisterBrokerBody");

    private final JavaClasses production = ModmqClasses.production();

    static final ArchRule SHARED_WIRE_TYPES_LIVE_IN_ONE_PACKAGE = classes()
            .that().haveNameMatching(".*[.$](" + String.join("|", SHARED_WIRE_TYPES) + ")")
            .should().resideInAPackage(WIRE_TYPES_HOME)
            .because("broker and name server read and write the same bodies; one copy keeps them in step");

    static final ArchRule ONE_JSON_HELPER = classes()
            .that().haveSimpleNameEndingWith("Json").and().areTopLevelClasses()
            .should().haveFullyQualifiedName("org.modmq.remoting.protocol.Json")
            .because("one mapper configuration decides how every body and metadata file looks");

    @Test
    void sharedWireTypesLiveInOnePackage() {
        SHARED_WIRE_TYPES_LIVE_IN_ONE_PACKAGE.check(production);
    }

    @Test
    void thereIsOneJsonHelper() {
        ONE_JSON_HELPER.check(production);
    }

    @Test
    void brokerAndNameServerShareNoCodeButRemotings() {
        noClasses().that().resideInAPackage("org.modmq.broker..")
                .should().dependOnClassesThat().resideInAPackage("org.modmq.namesrv..")
                .because("the broker reaches the name server over the network only; StandaloneStartup, which "
                        + "starts both, lives in mq-launcher")
                .check(production);
        noClasses().that().resideInAPackage("org.modmq.namesrv..")
                .should().dependOnClassesThat().resideInAPackage("org.modmq.broker..")
                .check(production);
    }

    @Test
    void rulesCatchASecondCopy() {
        JavaClasses fixture = new ClassFileImporter().importClasses(org.modmq.namesrv.fixture.DataVersion.class);
        assertThatThrownBy(() -> SHARED_WIRE_TYPES_LIVE_IN_ONE_PACKAGE.check(fixture))
                .isInstanceOf(AssertionError.class).hasMessageContaining("org.modmq.namesrv.fixture.DataVersion");
    }
}
