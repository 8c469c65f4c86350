package org.modmq.broker;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;
import org.modmq.api.config.ConfigValues;
import org.modmq.broker.config.BrokerConfigParser;
import org.modmq.broker.data.MessageStoreBinding;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.testkit.process.FreePort;

/** One in-process broker of a replicated broker set, with its store binding in reach (tests). */
final class HaNode implements AutoCloseable {

    private final BrokerServer broker;
    private volatile MessageStoreBinding binding;

    private HaNode(Map<String, String> values) {
        this.broker = new BrokerServer(BrokerConfigParser.parse(ConfigValues.of(values), "test"), Clock.systemUTC(),
                runtime -> {
                    binding = MessageStoreBinding.open(runtime, PluginSelection.discover());
                    return binding;
                });
        broker.start();
    }

    /**
     * Starts a broker of {@code broker-a} with a 1 MiB CommitLog segment under {@code store}.
     *
     * @param keyValues further keys, overriding the defaults
     */
    static HaNode start(Path store, int listenPort, int haListenPort, String namesrvAddr, String... keyValues) {
        Map<String, String> values = new TreeMap<>();
        values.put("brokerName", "broker-a");
        values.put("brokerIP1", "127.0.0.1");
        values.put("listenPort", Integer.toString(listenPort));
        values.put("haListenPort", Integer.toString(haListenPort));
        values.put("namesrvAddr", namesrvAddr);
        values.put("storePathRootDir", store.toString());
        values.put("mappedFileSizeCommitLog", "1048576");
        values.put("mappedFileSizeConsumeQueue", "20000");
        values.put("haReconnectMinMillis", "50");
        values.put("haReconnectMaxMillis", "500");
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            values.put(keyValues[i], keyValues[i + 1]);
        }
        return new HaNode(values);
    }

    /** A port free on 127.0.0.1 now (a broker binds it a moment later), outside the ephemeral range. */
    static int freePort() {
        return FreePort.pick();
    }

    BrokerServer broker() {
        return broker;
    }

    MessageStoreBinding binding() {
        return binding;
    }

    String address() {
        return broker.brokerAddr();
    }

    long commitLogMax() {
        return binding.store().getCommitLogMaxOffset();
    }

    @Override
    public void close() {
        broker.close();
    }
}
