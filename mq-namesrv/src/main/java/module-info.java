/** The name server: broker registry, routes, expiry scan. */
module org.modmq.namesrv {
    requires org.modmq.remoting;
    requires org.slf4j;
}
