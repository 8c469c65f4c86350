package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.ConfigException;
import org.modmq.api.config.ConfigKey;
import org.modmq.api.config.ConfigValues;
import org.modmq.api.config.PluginConfig;
import org.modmq.api.spi.PluginContext;
import org.modmq.api.spi.ProviderRegistry;
import org.modmq.api.spi.flush.FlushPolicyProvider;
import org.modmq.api.spi.replication.ReplicationStrategyProvider;
import org.modmq.api.spi.storage.StorageBackend;
import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.config.BrokerConfigParser;
import org.modmq.broker.config.PluginCatalog;
import org.modmq.broker.data.MessageStoreBinding;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * Plugins defined outside modmq, registered through the registry API: chosen by {@code storeBackend} and
 * {@code flushDiskType}, their keys accepted, checked, handed to them parsed and reported by
 * GET_BROKER_CONFIG; unknown keys and bad values stop start-up.
 */
@Tag("integration")
@Timeout(60)
class ThirdPartyPluginsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final TapeStorageBackendProvider tape = new TapeStorageBackendProvider();
    private final CountingFlushPolicyProvider counting = new CountingFlushPolicyProvider();

    private PluginCatalog catalog(StorageBackendProvider... extra) {
        List<StorageBackendProvider> storage = new ArrayList<>(
                ProviderRegistry.load(StorageBackendProvider.class).providers());
        storage.add(tape);
        storage.addAll(List.of(extra));
        List<FlushPolicyProvider> flush = new ArrayList<>(ProviderRegistry.load(FlushPolicyProvider.class).providers());
        flush.add(counting);
        return new PluginCatalog(ProviderRegistry.of(StorageBackendProvider.class, storage),
                ProviderRegistry.of(FlushPolicyProvider.class, flush),
                ProviderRegistry.load(ReplicationStrategyProvider.class));
    }

    private BrokerConfig parse(PluginCatalog catalog, String... keyValues) {
        Map<String, String> values = new TreeMap<>();
        values.put("brokerName", "broker-a");
        values.put("brokerIP1", "127.0.0.1");
        values.put("listenPort", "0");
        values.put("haListenPort", "0");
        values.put("storePathRootDir", dir.toString());
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            values.put(keyValues[i], keyValues[i + 1]);
        }
        return BrokerConfigParser.parse(ConfigValues.of(values), "test.conf", catalog);
    }

    @Test
    void aThirdPartyBackendAndFlushPolicyAreChosenConfiguredAndReported() throws IOException {
        PluginCatalog catalog = catalog();
        BrokerConfig config = parse(catalog, "storeBackend", "tape", "flushDiskType", "COUNTING_FLUSH",
                "tapeLabel", "reel-7", "countingFlushReportEvery", "10", "flushIntervalCommitLog", "200");
        assertThat(config.warnings()).isEmpty();
        try (BrokerServer broker = new BrokerServer(config, Clock.systemUTC(),
                runtime -> MessageStoreBinding.open(runtime, PluginSelection.of(catalog))).start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            String addr = broker.brokerAddr();
            Properties reported = brokerConfig(client, addr);
            assertThat(reported).containsEntry("storeBackend", "tape").containsEntry("flushDiskType", "COUNTING_FLUSH")
                    .containsEntry("tapeLabel", "reel-7").containsEntry("tapeSegments", "4")
                    .containsEntry("countingFlushReportEvery", "10");
            // The chosen flush policy is not ASYNC_FLUSH: that one's keys are accepted but not reported.
            assertThat(reported).doesNotContainKey("flushCommitLogLeastPages");

            assertThat(tape.created.get().string(TapeStorageBackendProvider.LABEL_KEY)).isEqualTo("reel-7");
            assertThat(tape.created.get().intValue(TapeStorageBackendProvider.SEGMENTS_KEY)).isEqualTo(4);
            assertThat(tape.started).isTrue();
            assertThat(counting.created.get().intValue(CountingFlushPolicyProvider.REPORT_KEY)).isEqualTo(10);
            assertThat(counting.started).isTrue();

            RemotingCommand sent = send(client, addr, "TapeTopic");
            assertThat(sent.code()).as(sent.remark()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(counting.appends.get()).isPositive();
        }
    }

    @Test
    void unknownKeysStopStartUpEvenWhenTheyLookLikeAPluginsKeys() {
        PluginCatalog catalog = catalog();
        assertThatThrownBy(() -> parse(catalog, "storeBackend", "tape", "tapeColour", "red"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContainingAll("unknown key 'tapeColour' in test.conf", "no installed plugin declares it",
                        "storeBackend [", "tape");
        // directReadCacheBytes belongs to the direct backend, which this test's path does not hold.
        assertThatThrownBy(() -> parse(catalog, "directReadCacheBytes", "0"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("unknown key 'directReadCacheBytes'");
    }

    @Test
    void badValuesOfTheChosenPluginsStopStartUpNamingKeyAndValue() {
        PluginCatalog catalog = catalog();
        assertThatThrownBy(() -> parse(catalog, "storeBackend", "tape", "tapeSegments", "0"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("tapeSegments=0 in test.conf is not valid: expected an integer in [1, 64]");
        assertThatThrownBy(() -> parse(catalog, "flushDiskType", "COUNTING_FLUSH", "countingFlushReportEvery", "many"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("countingFlushReportEvery=many");
        // Bundled plugins' keys are checked the same way.
        assertThatThrownBy(() -> parse(catalog, "flushIntervalCommitLog", "0"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("flushIntervalCommitLog=0 in test.conf");
    }

    @Test
    void keysOfInstalledPluginsThatAreNotChosenAreAcceptedButNotReported() {
        BrokerConfig config = parse(catalog(), "tapeSegments", "999", "countingFlushReportEvery", "x");
        assertThat(config.store().storeBackend()).isEqualTo("mmap");
        assertThat(config.effective()).doesNotContainKeys("tapeSegments", "countingFlushReportEvery")
                .containsEntry("flushIntervalCommitLog", "500").containsEntry("warmMapedFileEnable", "false");
        assertThat(config.warnings()).isEmpty();
    }

    @Test
    void flushDiskTypeIsAnOpenNameMatchedIgnoringCase() {
        PluginCatalog catalog = catalog();
        assertThat(parse(catalog, "flushDiskType", "sync_flush").store().flushDiskType()).isEqualTo("SYNC_FLUSH");
        assertThat(parse(catalog, "flushDiskType", "counting_flush").effective())
                .containsEntry("flushDiskType", "COUNTING_FLUSH");
        BrokerConfig unknown = parse(catalog, "flushDiskType", "TAPE_FLUSH");
        assertThatThrownBy(() -> PluginSelection.of(catalog).flushPolicy(unknown))
                .isInstanceOf(ConfigException.class)
                .hasMessageContainingAll("flushDiskType=TAPE_FLUSH", "[ASYNC_FLUSH, COUNTING_FLUSH, SYNC_FLUSH]");
    }

    @Test
    void aPluginThatDeclaresABrokerKeyStopsStartUp() {
        StorageBackendProvider greedy = new StorageBackendProvider() {
            @Override
            public String name() {
                return "greedy";
            }

            @Override
            public List<ConfigKey> configKeys() {
                return List.of(ConfigKey.integer("listenPort", 1, 0, 65535, "not its key"));
            }

            @Override
            public StorageBackend create(PluginConfig config, PluginContext context) {
                throw new UnsupportedOperationException("never created");
            }
        };
        assertThatThrownBy(() -> parse(catalog(greedy)))
                .isInstanceOf(ConfigException.class).hasMessageContainingAll("'greedy'", "'listenPort'");
    }

    private static Properties brokerConfig(RemotingClient client, String addr) throws IOException {
        RemotingCommand response = client.invoke(addr, RemotingCommand.request(RequestCode.GET_BROKER_CONFIG), WAIT)
                .join();
        assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
        Properties properties = new Properties();
        properties.load(new StringReader(new String(response.body(), StandardCharsets.UTF_8)));
        return properties;
    }

    private static RemotingCommand send(RemotingClient client, String addr, String topic) {
        return client.invoke(addr, RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).putExtField("a", "pg")
                .putExtField("b", topic).putExtField("c", "TBW102").putExtField("d", 4).putExtField("e", 0)
                .putExtField("f", 0).putExtField("g", 1L).putExtField("h", 0).putExtField("i", "")
                .putExtField("j", 0).withBody("on tape".getBytes(StandardCharsets.UTF_8)), WAIT).join();
    }
}
