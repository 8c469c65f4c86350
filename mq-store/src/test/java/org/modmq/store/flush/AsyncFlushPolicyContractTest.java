package org.modmq.store.flush;

import org.modmq.api.config.ConfigValues;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.store.tck.FlushPolicyContractTest;

/** ASYNC_FLUSH (periodic force) against the flush-policy contract, with a short interval. */
class AsyncFlushPolicyContractTest extends FlushPolicyContractTest {

    @Override
    protected FlushPolicyProvider provider() {
        return new AsyncFlushPolicyProvider();
    }

    @Override
    protected ConfigValues settings() {
        return ConfigValues.empty().with("flushIntervalCommitLog", "20");
    }
}
