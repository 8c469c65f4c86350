/**
 * RocketMQ remoting for modmq: frames and header codecs (JSON and ROCKETMQ), request and response
 * codes, typed header access, JSON bodies (the ones broker and name server share in {@code protocol.body}), and a Netty 4.2 server and client (epoll when available,
 * else NIO) that dispatch requests to processors on bounded executors, plain or over TLS (RocketMQ's
 * {@code tls.*} settings and its disabled / permissive / enforcing server modes).
 */
module org.modmq.remoting {
    requires transitive org.modmq.api;
    requires transitive io.netty.transport;
    requires transitive io.netty.buffer;
    requires transitive io.netty.common;
    requires transitive com.fasterxml.jackson.databind;
    requires io.netty.codec;
    requires io.netty.handler;
    requires io.netty.transport.classes.epoll;
    requires io.netty.transport.unix.common;
    requires org.slf4j;

    exports org.modmq.remoting.protocol;
    exports org.modmq.remoting.protocol.body;
    exports org.modmq.remoting.netty;
}
