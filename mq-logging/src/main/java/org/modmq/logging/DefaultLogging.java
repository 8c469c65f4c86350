package org.modmq.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.util.FileSize;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The distribution's logging, built in code: INFO to stdout and to {@code <log dir>/<name>.log}, rolled
 * daily and at 100 MB, 7 days and 1 GB kept; Netty and Ratis at WARN. The launchers set
 * {@code modmq.log.dir} and {@code modmq.log.name}; without the first there is no file.
 *
 * <p>Why not the XML file it replaces: reading an XML configuration runs logback's parser and model
 * framework, cold code that cost a restarted broker about 0.1 s of its start. When the system property
 * {@code logback.configurationFile} is set (the launchers set it when {@code conf/logback.xml} exists),
 * this configurator steps aside and logback reads that file as usual.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class DefaultLogging extends ContextAwareBase implements Configurator {

    /** The layout of every line, the same on stdout and in the file. */
    public static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n";

    static final String CONFIGURATION_FILE_PROPERTY = "logback.configurationFile";

    /** Loggers quieter than INFO: their INFO lines are start-up chatter (Ratis lists every setting). */
    static final Map<String, Level> QUIET = Map.of("io.netty", Level.WARN, "org.apache.ratis", Level.WARN);

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        return configure(context, System::getProperty);
    }

    ExecutionStatus configure(LoggerContext context, UnaryOperator<String> properties) {
        if (properties.apply(CONFIGURATION_FILE_PROPERTY) != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        ch.qos.logback.classic.Logger root = context.getLogger(ch.qos.logback.classic.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console(context));
        LogFiles.from(properties).ifPresent(files -> root.addAppender(file(context, files)));
        QUIET.forEach((name, level) -> context.getLogger(name).setLevel(level));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    private static ConsoleAppender<ILoggingEvent> console(LoggerContext context) {
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("STDOUT");
        console.setEncoder(encoder(context));
        console.start();
        return console;
    }

    private static RollingFileAppender<ILoggingEvent> file(LoggerContext context, LogFiles files) {
        RollingFileAppender<ILoggingEvent> file = new RollingFileAppender<>();
        file.setContext(context);
        file.setName("FILE");
        file.setFile(files.activeFile());
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(context);
        policy.setParent(file);
        policy.setFileNamePattern(files.rolledPattern());
        policy.setMaxFileSize(FileSize.valueOf("100MB"));
        policy.setMaxHistory(7);
        policy.setTotalSizeCap(FileSize.valueOf("1GB"));
        policy.start();
        file.setRollingPolicy(policy);
        file.setEncoder(encoder(context));
        file.start();
        return file;
    }

    private static PatternLayoutEncoder encoder(LoggerContext context) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        return encoder;
    }
}
