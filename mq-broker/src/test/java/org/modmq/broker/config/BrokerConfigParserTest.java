package org.modmq.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.api.config.BrokerRole;
import org.modmq.api.config.ConfigException;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.store.StoreConfig;

class BrokerConfigParserTest {

    @TempDir
    Path dir;

    private Path write(String text) throws IOException {
        Path file = dir.resolve("broker.conf");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void parsesRocketMqKeysIntoConfigsByConcern() throws IOException {
        Path file = write("""
                # a RocketMQ sample config
                brokerClusterName = DefaultCluster
                brokerName = broker-b
                brokerId = 1
                brokerRole = SLAVE
                brokerIP1 = 127.0.0.1
                listenPort = 20911
                haListenPort = 20912
                namesrvAddr = 127.0.0.1:9876;127.0.0.1:9877
                storePathRootDir = %s
                mappedFileSizeCommitLog = 1048576
                flushDiskType = SYNC_FLUSH
                deleteWhen = 04
                fileReservedTime = 48
                autoCreateTopicEnable = false
                defaultTopicQueueNums = 4
                registerNameServerPeriod = 5000
                storeBackend = direct
                haStrategy = push
                """.formatted(dir.resolve("store").toString().replace("\\", "/")));
        BrokerConfig config = BrokerConfigParser.parse(file);

        assertThat(config.identity().brokerName()).isEqualTo("broker-b");
        assertThat(config.identity().brokerId()).isEqualTo(1);
        assertThat(config.identity().role()).isEqualTo(BrokerRole.SLAVE);
        assertThat(config.identity().haServerAddr()).isEqualTo("127.0.0.1:20912");
        assertThat(config.nameServer().addresses()).containsExactly("127.0.0.1:9876", "127.0.0.1:9877");
        assertThat(config.nameServer().registerPeriodMillis()).isEqualTo(10_000);
        assertThat(config.store().rootDir()).isEqualTo(dir.resolve("store"));
        assertThat(config.store().commitLogDir()).isEqualTo(dir.resolve("store").resolve("commitlog"));
        assertThat(config.store().configDir()).isEqualTo(dir.resolve("store").resolve("config"));
        assertThat(config.store().flushDiskType()).isEqualTo("SYNC_FLUSH");
        assertThat(config.store().storeBackend()).isEqualTo("direct");
        assertThat(config.store().fileReservedHours()).isEqualTo(48);
        assertThat(config.replication().strategy()).isEqualTo("push");
        assertThat(config.topics().autoCreateTopicEnable()).isFalse();
        assertThat(config.topics().defaultTopicQueueNums()).isEqualTo(4);
        assertThat(config.warnings()).isEmpty();
        assertThat(config.toPropertiesText()).contains("brokerName=broker-b\n", "storeBackend=direct\n",
                "maxMessageSize=4194304\n");
    }

    @Test
    void appliesRocketMqDefaults() throws IOException {
        BrokerConfig config = BrokerConfigParser.parse(write("brokerName=broker-a\n"));
        assertThat(config.identity().clusterName()).isEqualTo("DefaultCluster");
        assertThat(config.identity().listenPort()).isEqualTo(10911);
        assertThat(config.identity().haListenPort()).isEqualTo(10912);
        assertThat(config.identity().role()).isEqualTo(BrokerRole.ASYNC_MASTER);
        assertThat(config.identity().permission()).isEqualTo(6);
        assertThat(config.store().storeBackend()).isEqualTo("mmap");
        assertThat(config.store().flushDiskType()).isEqualTo("ASYNC_FLUSH");
        assertThat(config.store().commitLogFileSize()).isEqualTo(1L << 30);
        assertThat(config.replication().strategy()).isEqualTo("pull");
        assertThat(config.nameServer().registerPeriodMillis()).isEqualTo(30_000);
        assertThat(config.nameServer().addresses()).isEmpty();
        assertThat(config.topics().autoCreateTopicEnable()).isTrue();
        assertThat(config.topics().defaultTopicQueueNums()).isEqualTo(8);
        assertThat(config.consume().longPollingEnable()).isTrue();
        assertThat(config.consume().channelExpiredTimeoutMillis()).isEqualTo(120_000);
    }

    @Test
    void clampsTheRegistrationPeriodToSixtySeconds() throws IOException {
        assertThat(BrokerConfigParser.parse(write("registerNameServerPeriod=600000\n")).nameServer()
                .registerPeriodMillis()).isEqualTo(60_000);
    }

    @Test
    void rejectsAnUnknownKeyNamingKeyAndFile() throws IOException {
        Path file = write("brokerName=broker-a\nbrokerNmae=typo\n");
        assertThatThrownBy(() -> BrokerConfigParser.parse(file))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("brokerNmae")
                .hasMessageContaining(file.toString());
    }

    @Test
    void warnsAboutRocketMqKeysThatModmqIgnores() throws IOException {
        Path file = write("authenticationEnabled=true\ntransientStorePoolEnable=false\n");
        BrokerConfig config = BrokerConfigParser.parse(file);
        assertThat(config.warnings()).hasSize(2);
        assertThat(config.warnings().get(0)).contains("authenticationEnabled", file.toString(), "ignored");
    }

    @Test
    void readsTheAclKeysAndKeepsTheInnerSecretOutOfTheEffectiveConfig() throws IOException {
        BrokerConfig off = BrokerConfigParser.parse(write("brokerName=broker-a\n"));
        assertThat(off.acl().enabled()).isFalse();
        assertThat(off.acl().file()).isEqualTo(Path.of("conf/plain_acl.yml"));
        assertThat(off.acl().innerAccessKey()).isEmpty();

        BrokerConfig on = BrokerConfigParser.parse(write("aclEnable=true\naclFile=/etc/modmq/acl.yml\n"
                + "innerAccessKey=brokerInner\ninnerSecretKey=innerSecret1\n"));
        assertThat(on.acl().enabled()).isTrue();
        assertThat(on.acl().file()).isEqualTo(Path.of("/etc/modmq/acl.yml"));
        assertThat(on.acl().innerAccessKey()).hasValue("brokerInner");
        assertThat(on.acl().innerSecretKey()).hasValue("innerSecret1");
        assertThat(on.warnings()).isEmpty();
        assertThat(on.toPropertiesText()).contains("aclEnable=true", "innerAccessKey=brokerInner")
                .doesNotContain("innerSecret1");
        assertThat(on.acl().toString()).doesNotContain("innerSecret1");

        assertBad("innerAccessKey=brokerInner\n", "innerSecretKey");
        assertBad("aclEnable=yes\n", "aclEnable=yes");
    }

    @Test
    void theHaAuthSecretIsAcceptedButNeverShown() throws IOException {
        for (String strategy : new String[] {"pull", "push"}) {
            BrokerConfig config = BrokerConfigParser.parse(write("haStrategy=" + strategy
                    + "\nhaAuthSecret=ha-secret-of-16-chars\n"));
            assertThat(config.warnings()).isEmpty();
            assertThat(config.toPropertiesText()).contains("haStrategy=" + strategy).doesNotContain("ha-secret-of-16");
        }
    }

    @Test
    void acceptsKeysTheStoreAndItsPluginsReadWithoutWarning() throws IOException {
        Path file = write("flushIntervalConsumeQueue=500\nmaxHashSlotNum=1000\nmaxIndexNum=4000\n"
                + "warmMapedFileEnable=true\ndiskSpaceWarningLevelRatio=0.85\nflushIntervalCommitLog=200\n"
                + "diskSpaceCleanForciblyRatio=80\n");
        BrokerConfig config = BrokerConfigParser.parse(file);
        assertThat(config.warnings()).isEmpty();
        assertThat(config.raw().intValue("maxHashSlotNum", 0)).isEqualTo(1000);
        assertBad("flushIntervalConsumeQueue=0\n", "flushIntervalConsumeQueue=0");
        assertBad("warmMapedFileEnable=maybe\n", "warmMapedFileEnable=maybe");
        assertBad("mmapChunkSize=0\n", "mmapChunkSize=0");
        assertBad("mmapIdleMappingBytes=-1\n", "mmapIdleMappingBytes=-1");
    }

    @Test
    void takesTheWarningRatioAsAFractionOrAsRocketMq5sPercent() throws IOException {
        for (String ratio : new String[] {"0.9", "90"}) {
            BrokerConfig config = BrokerConfigParser.parse(write("diskSpaceWarningLevelRatio=" + ratio + "\n"));
            assertThat(config.warnings()).isEmpty();
            assertThat(config.toPropertiesText()).contains("diskSpaceWarningLevelRatio=0.9");
            assertThat(StoreConfig.fraction(config.raw().doubleValue("diskSpaceWarningLevelRatio", 0))).isEqualTo(0.9);
        }
        assertBad("diskSpaceWarningLevelRatio=100\n", "diskSpaceWarningLevelRatio=100", "[10, 99]");
        assertBad("diskSpaceWarningLevelRatio=0.05\n", "diskSpaceWarningLevelRatio=0.05", "[0.1, 0.99]");
    }

    @Test
    void rejectsBadValuesNamingKeyFileAndAllowedValues() throws IOException {
        assertBad("listenPort=abc\n", "listenPort=abc", "[0, 65535]");
        assertBad("listenPort=70000\n", "listenPort=70000", "[0, 65535]");
        assertBad("brokerRole=LEADER\n", "brokerRole=LEADER", "SYNC_MASTER", "SLAVE");
        assertBad("autoCreateTopicEnable=yes\n", "autoCreateTopicEnable=yes", "true", "false");
        assertBad("diskMaxUsedSpaceRatio=99\n", "diskMaxUsedSpaceRatio=99", "[10, 95]");
        assertBad("diskSpaceCleanForciblyRatio=0.85\n", "diskSpaceCleanForciblyRatio=0.85", "[30, 85]");
        assertBad("diskSpaceCleanForciblyRatio=90\n", "diskSpaceCleanForciblyRatio=90", "[30, 85]");
        assertBad("mappedFileSizeConsumeQueue=1001\n", "mappedFileSizeConsumeQueue", "multiple of 20");
        assertBad("namesrvAddr=localhost\n", "namesrvAddr=localhost", "host:port");
        assertBad("brokerRole=SLAVE\n", "brokerId", ">= 1");
        assertBad("deleteWhen=25\n", "deleteWhen=25", "0-23");
    }

    @Test
    void aFlushDiskTypeNoInstalledPolicyAnswersToStopsStartUpListingThePresentOnes() throws IOException {
        Path file = write("flushDiskType=SOMETIMES\n");
        BrokerConfig config = BrokerConfigParser.parse(file);
        assertThatThrownBy(() -> PluginSelection.discover().flushPolicy(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageContainingAll("flushDiskType=SOMETIMES", file.toString(), "ASYNC_FLUSH", "SYNC_FLUSH");
    }

    private void assertBad(String text, String... expected) throws IOException {
        Path file = write(text);
        assertThatThrownBy(() -> BrokerConfigParser.parse(file))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContainingAll(expected);
    }

    @Test
    void reportsAnUnreadableFile() {
        Path missing = dir.resolve("missing.conf");
        assertThatThrownBy(() -> BrokerConfigParser.parse(missing))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(missing.toString());
    }
}
