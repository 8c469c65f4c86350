/**
 * The default logging of the distribution's processes: {@link org.modmq.logging.DefaultLogging} sets up
 * logback in code when no {@code logback.configurationFile} is given. Found by logback through
 * {@link java.util.ServiceLoader}; nothing requires this module.
 */
module org.modmq.logging {
    requires ch.qos.logback.classic;
    requires ch.qos.logback.core;

    provides ch.qos.logback.classic.spi.Configurator with org.modmq.logging.DefaultLogging;
}
