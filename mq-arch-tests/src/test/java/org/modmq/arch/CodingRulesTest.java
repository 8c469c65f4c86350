package org.modmq.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.GeneralCodingRules.NO_CLASSES_SHOULD_ACCESS_STANDARD_STREAMS;
import static com.tngtech.archunit.library.GeneralCodingRules.NO_CLASSES_SHOULD_THROW_GENERIC_EXCEPTIONS;
import static com.tngtech.archunit.library.GeneralCodingRules.NO_CLASSES_SHOULD_USE_JAVA_UTIL_LOGGING;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.core.domain.JavaModifier;
import org.junit.jupiter.api.Test;
import org.modmq.api.spi.NamedProvider;

class CodingRulesTest {

    private final JavaClasses production = ModmqClasses.production();

    @Test
    void noStandardStreams() {
        NO_CLASSES_SHOULD_ACCESS_STANDARD_STREAMS.check(production);
    }

    @Test
    void noJavaUtilLogging() {
        NO_CLASSES_SHOULD_USE_JAVA_UTIL_LOGGING.check(production);
    }

    @Test
    void noGenericExceptions() {
        NO_CLASSES_SHOULD_THROW_GENERIC_EXCEPTIONS.check(production);
    }

    @Test
    void providersArePublicFinalWithNoArgConstructors() {
        classes().that().implement(NamedProvider.class).and().areNotInterfaces()
                .should().haveModifier(JavaModifier.FINAL)
                .andShould().bePublic()
                .check(production);
    }

    @Test
    void providersAreNotNamedOutsideTheirModule() {
        classes().that().implement(NamedProvider.class).and().areNotInterfaces()
                .should(onlyBeReferencedFromTheirOwnPackage())
                .because("plugins are discovered with ServiceLoader, never named in code")
                .check(production);
    }

    private static ArchCondition<JavaClass> onlyBeReferencedFromTheirOwnPackage() {
        return new ArchCondition<>("be referenced only from their own package") {
            @Override
            public void check(JavaClass provider, ConditionEvents events) {
                String home = provider.getPackageName();
                for (Dependency dependency : provider.getDirectDependenciesToSelf()) {
                    JavaClass origin = dependency.getOriginClass();
                    if (!origin.getPackageName().startsWith(home)) {
                        events.add(SimpleConditionEvent.violated(provider, dependency.getDescription()));
                    }
                }
            }
        };
    }
}
