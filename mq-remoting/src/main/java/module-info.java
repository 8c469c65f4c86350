/** RocketMQ remoting: frames, codecs, codes, Netty server and client. */
module org.modmq.remoting {
    requires transitive org.modmq.api;
    requires transitive io.netty.transport;
    requires io.netty.codec;
    requires org.slf4j;
}
