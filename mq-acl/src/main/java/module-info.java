/**
 * RocketMQ's ACL 1.0 ("plain access", {@code plain_acl.yml}) for modmq servers: checks the signature
 * that stock clients add with {@code AclClientRPCHook}, the global and per-account IP white lists,
 * the admin flag and the topic and group permissions a request needs; re-reads the file when it
 * changes; and signs a server's own outgoing requests. Plugged into a remoting server as its
 * {@link org.modmq.remoting.netty.RequestCheck} and into a remoting client as its
 * {@link org.modmq.remoting.netty.OutgoingRequestHook}.
 */
module org.modmq.acl {
    requires transitive org.modmq.remoting;
    requires org.yaml.snakeyaml;
    requires org.slf4j;

    exports org.modmq.acl;
}
