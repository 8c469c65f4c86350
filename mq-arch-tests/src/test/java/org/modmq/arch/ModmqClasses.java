package org.modmq.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;

/** The production classes of every modmq module, imported once. */
final class ModmqClasses {

    /** Packages of plugin modules: they may depend on mq-api only. */
    static final String[] PLUGIN_PACKAGES = {"org.modmq.store.mmap..", "org.modmq.store.direct..",
        "org.modmq.store.faulty..", "org.modmq.ha.."};

    private static JavaClasses classes;

    private ModmqClasses() {
    }

    static synchronized JavaClasses production() {
        if (classes == null) {
            classes = new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .withImportOption(ModmqClasses::notTestKit)
                    .importPackages("org.modmq");
        }
        return classes;
    }

    // The conformance kits are test code that lives in main; production rules do not apply to them.
    private static boolean notTestKit(Location location) {
        return !location.contains("org/modmq/store/tck") && !location.contains("mq-store-tck")
                && !location.contains("org/modmq/replication/tck") && !location.contains("mq-replication-tck")
                && !location.contains("/test-classes/");
    }
}
