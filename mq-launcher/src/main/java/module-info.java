/**
 * Process entry points that put several modmq servers in one JVM: {@link org.modmq.launcher.NamesrvLauncher}
 * (the name server, with the controller beside it when {@code enableControllerInNamesrv=true}),
 * {@link org.modmq.launcher.ControllerLauncher} (a controller peer) and
 * {@link org.modmq.launcher.StandaloneStartup} (name server and broker, the quick start). The controller
 * and with it Ratis are loaded only when a configuration asks for a controller.
 */
module org.modmq.launcher {
    requires org.modmq.api;
    requires org.modmq.namesrv;
    requires org.modmq.controller;
    requires org.modmq.broker;
    requires org.modmq.metrics;
    requires org.slf4j;

    exports org.modmq.launcher;
}
