package org.modmq.broker.config;

import java.util.List;
import java.util.Objects;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.spi.NamedProvider;

/**
 * Renders the broker configuration reference ({@code docs/config.md}) from the declarations: the broker's
 * own keys ({@link BrokerConfigParser#declarations()}), the keys of every provider in a
 * {@link PluginCatalog}, and the RocketMQ keys accepted and ignored. The output depends only on the
 * declarations, not on the host (a default under the user's home is shown under {@code ~}). Stateless and
 * thread-safe.
 */
public final class ConfigReference {

    private static final String HEADER = "| key | type | default | allowed | description |\n|---|---|---|---|---|\n";

    private ConfigReference() {
    }

    /** The whole reference as Markdown. */
    public static String render(PluginCatalog catalog) {
        Objects.requireNonNull(catalog, "catalog");
        StringBuilder md = new StringBuilder();
        md.append("# Broker configuration reference\n\n")
                .append("<!-- Generated from the key declarations by ConfigReference; do not edit by hand. ")
                .append("Regenerate: mvn -o -q -pl mq-arch-tests -am test -Dtest=ConfigReferenceTest ")
                .append("-Dsurefire.failIfNoSpecifiedTests=false -Dmodmq.regenerate=true -->\n\n")
                .append("`broker.conf` holds the broker's own keys (RocketMQ's names where RocketMQ has the key), ")
                .append("the keys the installed plugins declare, and RocketMQ keys that modmq accepts but ignores ")
                .append("(each logged as a warning). Any other key stops start-up naming the key and the file. ")
                .append("A plugin is chosen by `storeBackend`, `flushDiskType` or `haStrategy`; the chosen ")
                .append("plugins' keys are checked at start-up (a bad value stops it naming key, value and file) ")
                .append("and reported with their values in force by `mqadmin getBrokerConfig`. Keys of installed ")
                .append("plugins that are not chosen are accepted unchecked. Durations are whole milliseconds ")
                .append("unless the key says otherwise, sizes whole bytes.\n\n")
                .append("## Broker keys\n\n").append(HEADER);
        for (ConfigKey key : BrokerConfigParser.declarations()) {
            row(md, key, BrokerKeyDescriptions.hostDependentDefault(key.name()).orElse(null));
        }
        md.append("\n## Plugin keys\n\n")
                .append("The plugins bundled with modmq. A third-party plugin's keys are accepted once its jar is ")
                .append("in `plugins/`; its provider declares them (`NamedProvider.configKeys()`).\n");
        for (PluginCatalog.Slot slot : catalog.slots()) {
            for (NamedProvider provider : slot.providers()) {
                md.append("\n### `").append(slot.selectorKey()).append('=').append(provider.name()).append("`\n\n")
                        .append(slot.spi()).append(" `").append(provider.getClass().getName()).append("`.\n\n");
                List<ConfigKey> keys = PluginCatalog.keysOf(provider);
                if (keys.isEmpty()) {
                    md.append("Declares no keys.\n");
                    continue;
                }
                md.append(HEADER);
                for (ConfigKey key : keys) {
                    row(md, key, null);
                }
            }
        }
        md.append("\n## RocketMQ keys accepted and ignored\n\n");
        md.append(String.join(", ", BrokerConfigParser.ignoredKeys().stream().map(k -> "`" + k + "`").toList()));
        md.append("\n");
        return md.toString();
    }

    private static void row(StringBuilder md, ConfigKey key, String shownDefault) {
        String value = shownDefault != null ? shownDefault : key.defaultValue() == null ? "(none)"
                : key.defaultValue().isEmpty() ? "(empty)" : "`" + hostFree(key.defaultValue()) + "`";
        md.append("| `").append(key.name()).append("` | ").append(key.type().label()).append(" | ")
                .append(cell(value)).append(" | ").append(cell(key.allowed())).append(" | ")
                .append(cell(key.description())).append(" |\n");
    }

    private static String hostFree(String value) {
        String home = System.getProperty("user.home");
        return home == null || home.isEmpty() || !value.startsWith(home) ? value : "~" + value.substring(home.length());
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
