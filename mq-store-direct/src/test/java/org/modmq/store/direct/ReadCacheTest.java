package org.modmq.store.direct;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReadCacheTest {

    @Test
    void evictsLeastRecentlyUsedChunksBeyondItsBound() {
        ReadCache cache = new ReadCache(300);
        cache.put(1, 0, new byte[100]);
        cache.put(1, 1, new byte[100]);
        cache.put(2, 0, new byte[100]);
        assertThat(cache.get(1, 0)).isNotNull();
        cache.put(2, 1, new byte[100]);
        assertThat(cache.get(1, 1)).as("least recently used").isNull();
        assertThat(cache.get(1, 0)).isNotNull();
        assertThat(cache.size()).isEqualTo(300);
    }

    @Test
    void invalidatesRangesAndSegments() {
        ReadCache cache = new ReadCache(1000);
        for (int chunk = 0; chunk < 4; chunk++) {
            cache.put(1, chunk, new byte[10]);
            cache.put(2, chunk, new byte[10]);
        }
        cache.invalidate(1, 1, 2);
        assertThat(cache.get(1, 0)).isNotNull();
        assertThat(cache.get(1, 1)).isNull();
        assertThat(cache.get(1, 2)).isNull();
        assertThat(cache.get(1, 3)).isNotNull();
        cache.invalidateAll(2);
        assertThat(cache.get(2, 0)).isNull();
        assertThat(cache.size()).isEqualTo(20);
    }

    @Test
    void zeroBoundCachesNothing() {
        ReadCache cache = new ReadCache(0);
        cache.put(1, 0, new byte[1]);
        assertThat(cache.get(1, 0)).isNull();
        assertThat(cache.size()).isZero();
    }
}
