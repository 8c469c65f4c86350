package org.modmq.broker.config;

import java.util.Objects;
import org.modmq.api.config.BrokerRole;

/**
 * Who the broker is and where it listens ({@code brokerClusterName}, {@code brokerName},
 * {@code brokerId}, {@code brokerRole}, {@code brokerIP1}, {@code brokerIP2}, {@code listenPort},
 * {@code haListenPort}, {@code brokerPermission}). Immutable.
 *
 * @param clusterName cluster this broker set belongs to
 * @param brokerName name of the broker set (master and its slaves share it)
 * @param brokerId 0 for the master, at least 1 for a slave
 * @param role replication role
 * @param ip1 address clients dial; also the bind address
 * @param ip2 address slaves dial for replication
 * @param listenPort main remoting port; 0 picks an ephemeral port (tests)
 * @param haListenPort replication port: {@code listenPort + 1} when unset or 0; 0 only with
 *        {@code listenPort=0} (tests), where the strategy binds an ephemeral port
 * @param permission broker-wide permission bits (see {@code Perm}); ANDed into every registered topic
 * @param vipListenPort modmq's {@code vipListenPort}: the second port RocketMQ brokers always open
 *        ({@code listenPort - 2}, the "VIP channel", where stock slaves sync metadata); 0 = none
 */
public record BrokerIdentityConfig(String clusterName, String brokerName, long brokerId, BrokerRole role,
                                   String ip1, String ip2, int listenPort, int haListenPort, int permission,
                                   int vipListenPort) {

    /** An identity without a VIP port. */
    public BrokerIdentityConfig(String clusterName, String brokerName, long brokerId, BrokerRole role,
                                String ip1, String ip2, int listenPort, int haListenPort, int permission) {
        this(clusterName, brokerName, brokerId, role, ip1, ip2, listenPort, haListenPort, permission, 0);
    }

    public BrokerIdentityConfig {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(brokerName, "brokerName");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(ip1, "ip1");
        Objects.requireNonNull(ip2, "ip2");
    }

    /** {@code brokerIP1:port}: the address registered with the name servers. */
    public String brokerAddr(int boundPort) {
        return ip1 + ":" + boundPort;
    }

    /** {@code brokerIP2:haListenPort}. */
    public String haServerAddr() {
        return ip2 + ":" + haListenPort;
    }

    public boolean isMaster() {
        return brokerId == 0 && role.isMaster();
    }

    static BrokerIdentityConfig read(ConfigReader reader) {
        String cluster = reader.string("brokerClusterName", "DefaultCluster");
        String name = reader.string("brokerName", "broker-a");
        long id = reader.longIn("brokerId", 0, 0, Long.MAX_VALUE);
        BrokerRole role = reader.enumValue("brokerRole", BrokerRole.class, BrokerRole.ASYNC_MASTER);
        if (role == BrokerRole.SLAVE && id == 0) {
            throw reader.bad("brokerId", "0", "an id >= 1 when brokerRole=SLAVE");
        }
        if (role != BrokerRole.SLAVE && id != 0) {
            throw reader.bad("brokerId", Long.toString(id), "0 when brokerRole=" + role);
        }
        String ip1 = reader.string("brokerIP1", "127.0.0.1");
        String ip2 = reader.string("brokerIP2", ip1);
        int listenPort = reader.intIn("listenPort", 10911, 0, 65535);
        int haPort = reader.intIn("haListenPort", 0, 0, 65535);
        if (haPort == 0 && listenPort != 0) {
            // RocketMQ derives listenPort + 1 when haListenPort is unset or <= 0.
            if (listenPort == 65535) {
                throw reader.bad("haListenPort", "0", "a port in [1, 65535]: listenPort + 1 is out of range");
            }
            haPort = listenPort + 1;
            // GET_BROKER_CONFIG reports the port in force: a replica in controller mode finds its master's here.
            reader.remember("haListenPort", Integer.toString(haPort));
        }
        // RocketMQ's PermName.isValid: READ, WRITE and INHERIT bits only.
        int permission = reader.intIn("brokerPermission", 6, 0, 7);
        int vip = reader.intIn("vipListenPort", listenPort > 2 ? listenPort - 2 : 0, 0, 65535);
        validateName(reader, "brokerClusterName", cluster);
        validateName(reader, "brokerName", name);
        return new BrokerIdentityConfig(cluster, name, id, role, ip1, ip2, listenPort, haPort, permission, vip);
    }

    private static void validateName(ConfigReader reader, String key, String value) {
        if (!value.matches("[a-zA-Z0-9_%|-]{1,127}")) {
            throw reader.bad(key, value, "1 to 127 characters of [a-zA-Z0-9_%|-]");
        }
    }
}
