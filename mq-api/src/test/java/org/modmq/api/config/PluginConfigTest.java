package org.modmq.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginConfigTest {

    private static final List<ConfigKey> KEYS = List.of(
            ConfigKey.string("tapeLabel", "A1", "label"),
            ConfigKey.bool("tapeRewind", false, "rewind"),
            ConfigKey.integer("tapeDrives", 2, 1, 8, "drives"),
            ConfigKey.millis("tapeSeekTimeout", 500, 1, 60_000, "seek"),
            ConfigKey.bytes("tapeBlock", 4096, 512, 1 << 20, "block"),
            ConfigKey.choice("tapeMode", "fast", List.of("fast", "safe"), "mode"),
            ConfigKey.string("tapeHost", null, "derived when absent"));

    @Test
    void appliesDefaultsAndParsesSetValues() {
        PluginConfig config = PluginConfig.of(KEYS, ConfigValues.of(Map.of("tapeDrives", " 4 ", "tapeRewind", "TRUE",
                "tapeMode", "SAFE", "listenPort", "10911")));

        assertThat(config.string("tapeLabel")).isEqualTo("A1");
        assertThat(config.bool("tapeRewind")).isTrue();
        assertThat(config.intValue("tapeDrives")).isEqualTo(4);
        assertThat(config.longValue("tapeDrives")).isEqualTo(4L);
        assertThat(config.duration("tapeSeekTimeout")).isEqualTo(Duration.ofMillis(500));
        assertThat(config.longValue("tapeBlock")).isEqualTo(4096L);
        assertThat(config.string("tapeMode")).isEqualTo("safe");
        assertThat(config.isSet("tapeHost")).isFalse();
        assertThat(config.text("tapeHost")).isEmpty();
        assertThat(config.values().intValue("listenPort", 0)).isEqualTo(10911);
        assertThat(config.effective()).containsEntry("tapeDrives", "4").containsEntry("tapeMode", "safe")
                .containsEntry("tapeLabel", "A1").doesNotContainKey("tapeHost").doesNotContainKey("listenPort");
    }

    @Test
    void aBadValueNamesKeyValueSourceAndWhatIsAllowed() {
        assertThatThrownBy(() -> PluginConfig.of(KEYS, ConfigValues.of(Map.of("tapeDrives", "9")), "broker.conf"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("tapeDrives=9 in broker.conf is not valid: expected an integer in [1, 8]");
        assertThatThrownBy(() -> PluginConfig.of(KEYS, ConfigValues.of(Map.of("tapeRewind", "yes"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("tapeRewind=yes")
                .hasMessageContaining("[true, false]");
        assertThatThrownBy(() -> PluginConfig.of(KEYS, ConfigValues.of(Map.of("tapeMode", "slow"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("one of [fast, safe]");
        assertThatThrownBy(() -> PluginConfig.of(KEYS, ConfigValues.of(Map.of("tapeSeekTimeout", "1s"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("milliseconds in [1, 60000]");
    }

    @Test
    void readingAnUndeclaredOrMistypedKeyIsAProgrammingError() {
        PluginConfig config = PluginConfig.of(KEYS, ConfigValues.empty());
        assertThatThrownBy(() -> config.string("listenPort")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not declared");
        assertThatThrownBy(() -> config.bool("tapeDrives")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("INT");
        assertThatThrownBy(() -> config.string("tapeHost")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no value");
    }

    @Test
    void declarationsAreCheckedWhenMade() {
        assertThatThrownBy(() -> ConfigKey.integer("x", 0, 1, 8, "d")).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> ConfigKey.choice("x", "a", List.of(), "d"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PluginConfig.of(List.of(ConfigKey.bool("x", true, "d"), ConfigKey.bool("x", false, "d")),
                ConfigValues.empty())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
        assertThat(ConfigKey.bytes("b", 1, 0, 2, "d").type().label()).isEqualTo("size (bytes)");
    }

    @Test
    void aSecretIsReadButNeverShown() {
        List<ConfigKey> keys = List.of(ConfigKey.secret("vaultKey", "d"), ConfigKey.bool("x", true, "d"));
        PluginConfig config = PluginConfig.of(keys, ConfigValues.of(Map.of("vaultKey", " hush-hush ")));
        assertThat(config.string("vaultKey")).isEqualTo("hush-hush");
        assertThat(config.text("vaultKey")).contains("hush-hush");
        assertThat(config.effective()).containsOnlyKeys("x");
        assertThat(config.toString()).doesNotContain("hush");
        assertThat(PluginConfig.of(keys, ConfigValues.empty()).isSet("vaultKey")).isFalse();
        assertThat(ConfigKey.secret("vaultKey", "d").type().label()).isEqualTo("secret");
    }
}
