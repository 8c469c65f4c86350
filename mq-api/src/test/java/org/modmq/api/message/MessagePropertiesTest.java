package org.modmq.api.message;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessagePropertiesTest {

    @Test
    void roundTripsInOrder() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("TAGS", "TagA");
        properties.put("KEYS", "k1 k2");
        String encoded = MessageProperties.encode(properties);

        assertThat(encoded).isEqualTo("TAGS\u0001TagA\u0002KEYS\u0001k1 k2\u0002");
        assertThat(MessageProperties.decode(encoded)).containsExactly(Map.entry("TAGS", "TagA"), Map.entry("KEYS", "k1 k2"));
    }

    @Test
    void skipsEmptyPairsAndLetsTheLastDuplicateWin() {
        assertThat(MessageProperties.decode("A\u00011\u0002\u0001x\u0002B\u0001\u0002A\u00012\u0002"))
                .containsExactly(Map.entry("A", "2"));
    }

    @Test
    void tagsCodeIsStringHash() {
        assertThat(MessageProperties.tagsCode("TagA")).isEqualTo(0x27a807L);
        assertThat(MessageProperties.tagsCode(null)).isZero();
    }

    @Test
    void readsOneValueAsDecodeWould() {
        assertThat(MessageProperties.value("A\u00011\u0002AB\u0001x\u0002A\u00012", "A")).isEqualTo("2");
        assertThat(MessageProperties.value("AB\u0001x\u0002", "A")).isNull();
        assertThat(MessageProperties.value(null, "A")).isNull();
        String[] names = {"A", "AB", "B", "UNIQ_KEY"};
        String pieces = "\u0001\u0002AB9";
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int c = random.nextInt(14); c > 0; c--) {
                text.append(random.nextInt(3) == 0 ? names[random.nextInt(names.length)]
                        : String.valueOf(pieces.charAt(random.nextInt(pieces.length()))));
            }
            Map<String, String> decoded = MessageProperties.decode(text.toString());
            for (String name : names) {
                assertThat(MessageProperties.value(text.toString(), name)).as("%s in %s", name, text)
                        .isEqualTo(decoded.get(name));
            }
        }
    }
}
