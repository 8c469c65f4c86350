package org.modmq.store;

/** Test fixture: core code that names a plugin class, which the rules must reject. */
public final class BrokerNamingAPlugin {

    public Object name() {
        return org.modmq.store.mmap.fixture.PluginReachingIntoStore.class;
    }
}
