package org.modmq.store.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.api.message.MessageProperties;

class PropertyScanTest {

    private static final String[] NAMES = {"TAGS", "KEYS", "UNIQ_KEY", "WAIT"};

    @Test
    void findsWhatDecodeFinds() {
        String[] samples = {
            "", "TAGS\u0001a\u0002", "KEYS\u0001k1 k2\u0002TAGS\u0001t\u0002UNIQ_KEY\u0001ABC\u0002",
            "TAGS\u0001first\u0002TAGS\u0001second\u0002", "TAGS\u0001\u0002KEYS\u0001x", "XTAGS\u0001no\u0002",
            "TAGSX\u0001no\u0002", "\u0001TAGS\u0002", "TAGS\u0002KEYS\u0001v\u0002", "TAGS\u0001a\u0001b\u0002",
            "UNIQ_KEY\u0001é\u0002", "TAGS"
        };
        for (String sample : samples) {
            Map<String, String> decoded = MessageProperties.decode(sample);
            for (String name : NAMES) {
                assertThat(PropertyScan.find(sample, name)).as("%s in %s", name, sample).isEqualTo(decoded.get(name));
            }
        }
    }

    @Test
    void laterPairWins() {
        assertThat(PropertyScan.find("WAIT\u0001true\u0002WAIT\u0001false\u0002", "WAIT")).isEqualTo("false");
        assertThat(PropertyScan.find(null, "WAIT")).isNull();
    }
}
