package org.modmq.store.flush;

import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.store.tck.FlushPolicyContractTest;

/** SYNC_FLUSH (group commit) against the flush-policy contract. */
class SyncFlushPolicyContractTest extends FlushPolicyContractTest {

    @Override
    protected FlushPolicyProvider provider() {
        return new SyncFlushPolicyProvider();
    }
}
