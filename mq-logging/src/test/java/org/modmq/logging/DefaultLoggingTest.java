package org.modmq.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefaultLoggingTest {

    @TempDir
    Path dir;

    private final LoggerContext context = new LoggerContext();

    @BeforeEach
    void mdc() {
        // slf4j's provider hands a context its MDC; a context made by hand needs one to append.
        context.setMDCAdapter(new LogbackMDCAdapter());
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    @Test
    void logsInfoToTheNamedFileInTheLogDirectory() throws IOException {
        Path logs = dir.resolve("log files");
        ExecutionStatus status = new DefaultLogging().configure(context,
                Map.of("modmq.log.dir", logs.toString(), "modmq.log.name", "broker")::get);

        context.getLogger("org.modmq.broker.BrokerServer").info("broker {} started", "broker-a");
        context.getLogger("org.modmq.broker.BrokerServer").debug("not at INFO");
        context.getLogger("io.netty.channel.Bootstrap").info("netty chatter");
        context.getLogger("io.netty.channel.Bootstrap").warn("netty warning");

        assertThat(status).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        String written = Files.readString(logs.resolve("broker.log"));
        assertThat(written).containsPattern(
                "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[[^]]+] org\\.modmq\\.broker\\.BrokerServer"
                        + " - broker broker-a started\\n");
        assertThat(written).doesNotContain("not at INFO", "netty chatter").contains("netty warning");
        assertThat(context.getLogger("org.apache.ratis").getLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void logsToStdoutOnlyWithoutTheLaunchersLogDirectory() {
        ExecutionStatus status = new DefaultLogging().configure(context, name -> null);

        assertThat(status).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger(ch.qos.logback.classic.Logger.ROOT_LOGGER_NAME).iteratorForAppenders())
                .toIterable().extracting(appender -> appender.getName()).containsExactly("STDOUT");
    }

    @Test
    void namesTheFileModmqWithoutTheLaunchersLogName() {
        LogFiles files = LogFiles.from(Map.of("modmq.log.dir", "logs")::get).orElseThrow();

        assertThat(files.activeFile()).isEqualTo(Path.of("logs", "modmq.log").toString());
        assertThat(files.rolledPattern()).isEqualTo("logs/modmq.%d{yyyy-MM-dd}.%i.log");
    }

    @Test
    void refusesALogDirectoryThatLogbackWouldReadAsAPattern() {
        assertThatThrownBy(() -> LogFiles.from(Map.of("modmq.log.dir", "/var/log/100%")::get))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contains '%'");
    }

    @Test
    void stepsAsideWhenAConfigurationFileIsNamed() {
        ExecutionStatus status = new DefaultLogging().configure(context,
                Map.of("logback.configurationFile", "conf/logback.xml")::get);

        assertThat(status).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger(ch.qos.logback.classic.Logger.ROOT_LOGGER_NAME).iteratorForAppenders()).isExhausted();
    }
}
