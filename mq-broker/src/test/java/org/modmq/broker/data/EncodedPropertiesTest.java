package org.modmq.broker.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.modmq.api.message.MessageProperties;

/** The in-place completion of a properties string gives exactly what the map path gives, or declines. */
class EncodedPropertiesTest {

    private static final String[] NAMES = {"KEYS", "TAGS", "UNIQ_KEY", "WAIT", "MSG_REGION", "TRACE_ON", "CLUSTER",
        "DELAY", "a", "ab", "x"};
    private static final String PIECES = "\u0001\u0002kv9";

    private static String mapPath(String encoded) {
        Map<String, String> properties = MessageProperties.decode(encoded);
        return MessageProperties.encode(BrokerProperties.complete(properties, "DefaultCluster", () -> "NEWKEY"));
    }

    @Test
    void completesAPlainBatchMessageInPlace() {
        String encoded = "KEYS\u0001k1\u0002TAGS\u0001t\u0002UNIQ_KEY\u0001U1\u0002WAIT\u0001true\u0002";
        EncodedProperties parsed = EncodedProperties.parse(encoded);
        assertThat(parsed).isNotNull();
        assertThat(parsed.get("WAIT")).isEqualTo("true");
        assertThat(parsed.get("DELAY")).isNull();
        assertThat(parsed.completed("DefaultCluster", () -> "NEWKEY")).isEqualTo(mapPath(encoded))
                .isEqualTo(encoded + "CLUSTER\u0001DefaultCluster\u0002MSG_REGION\u0001DefaultRegion\u0002"
                        + "TRACE_ON\u0001true\u0002");
    }

    @Test
    void declinesWhatTheDecoderWouldChange() {
        assertThat(EncodedProperties.parse("A\u0001x\u0002A\u0001y\u0002")).as("a repeated name").isNull();
        assertThat(EncodedProperties.parse("A\u0001\u0002")).as("an empty value").isNull();
        assertThat(EncodedProperties.parse("\u0001x\u0002")).as("an empty name").isNull();
        assertThat(EncodedProperties.parse("A\u0001x\u0002\u0002")).as("an empty entry").isNull();
        assertThat(EncodedProperties.parse("Ax\u0002")).as("no separator").isNull();
        assertThat(EncodedProperties.parse("CLUSTER\u0001c\u0002")).as("a CLUSTER of the client's").isNull();
    }

    @Test
    void agreesWithTheMapPathOnRandomStrings() {
        Random random = new Random(20261201L);
        int inPlace = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            int entries = random.nextInt(6);
            for (int e = 0; e < entries; e++) {
                if (random.nextInt(8) == 0) {
                    // noise: separators and characters anywhere
                    for (int c = random.nextInt(4); c > 0; c--) {
                        text.append(PIECES.charAt(random.nextInt(PIECES.length())));
                    }
                } else {
                    text.append(NAMES[random.nextInt(NAMES.length)]).append('\u0001').append("v").append(e);
                    if (e < entries - 1 || random.nextBoolean()) {
                        text.append('\u0002');
                    }
                }
            }
            String encoded = text.toString();
            EncodedProperties parsed = EncodedProperties.parse(encoded);
            if (parsed != null) {
                inPlace++;
                assertThat(parsed.completed("DefaultCluster", () -> "NEWKEY")).as("%s", encoded)
                        .isEqualTo(mapPath(encoded));
                Map<String, String> decoded = MessageProperties.decode(encoded);
                for (String name : NAMES) {
                    assertThat(parsed.get(name)).isEqualTo(decoded.get(name));
                }
            }
        }
        assertThat(inPlace).as("strings completed in place").isGreaterThan(5_000);
    }
}
