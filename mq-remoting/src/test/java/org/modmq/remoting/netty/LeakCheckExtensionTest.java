package org.modmq.remoting.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LeakCheckExtension.class)
class LeakCheckExtensionTest {

    @Test
    void reportsAnUnreleasedBuffer() {
        leakOne();
        assertThat(LeakCheckExtension.detectorCount()).isPositive();
        long deadline = System.nanoTime() + 10_000_000_000L;
        AssertionError failure = null;
        while (failure == null && System.nanoTime() < deadline) {
            try {
                LeakCheckExtension.check();
            } catch (AssertionError e) {
                failure = e;
            }
        }
        assertThat(failure).as("a LEAK report within 10 s").isNotNull();
        assertThat(failure).hasMessageContaining("LEAK");
    }

    private static void leakOne() {
        ByteBuf leaked = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        leaked.writeLong(42);
    }
}
