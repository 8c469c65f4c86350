package org.modmq.ha.pull;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The leak check must bite, or a green run means nothing. */
@ExtendWith(LeakCheck.class)
@Timeout(30)
class LeakCheckTest {

    @Test
    void reportsAnUnreleasedBuffer() {
        AssertionError caught = null;
        for (int attempt = 0; attempt < 20 && caught == null; attempt++) {
            leakOne();
            try {
                new LeakCheck().afterEach(null);
            } catch (AssertionError e) {
                caught = e;
            }
        }
        assertThat(caught).isNotNull().hasMessageContaining("leak");
    }

    private static void leakOne() {
        ByteBufAllocator.DEFAULT.directBuffer(64).writeLong(1);
    }
}
