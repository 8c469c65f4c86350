/**
 * The modmq name server: broker registry, topic routes and the expiry scan, served over RocketMQ's
 * remoting protocol. Other modules start one in-process through {@link org.modmq.namesrv.NamesrvServer}.
 */
module org.modmq.namesrv {
    requires transitive org.modmq.remoting;
    requires com.fasterxml.jackson.databind;
    requires org.slf4j;

    exports org.modmq.namesrv;

    opens org.modmq.namesrv.body to com.fasterxml.jackson.databind;
}
