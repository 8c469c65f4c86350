package org.modmq.compat;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * The stock {@link DefaultMQAdminExt} (rocketmq-tools 5.3.3), started against explicit name-server
 * addresses only (without them it would look one up over HTTP). Each instance has its own instance
 * name, hence its own connections. Not thread-safe; close it once done (idempotent).
 */
final class StockAdmin implements AutoCloseable {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final DefaultMQAdminExt admin;
    private boolean closed;

    private StockAdmin(DefaultMQAdminExt admin) {
        this.admin = admin;
    }

    /**
     * Starts an admin client.
     *
     * @param namesrvAddr {@code 127.0.0.1:port} entries separated by {@code ;}
     */
    static StockAdmin start(String namesrvAddr) throws MQClientException {
        return start(namesrvAddr, null, false);
    }

    /**
     * Starts an admin client whose requests pass {@code rpcHook} (e.g. {@code AclClientRPCHook}).
     *
     * @param namesrvAddr {@code 127.0.0.1:port} entries separated by {@code ;}
     * @param rpcHook the hook, or null for none
     */
    static StockAdmin start(String namesrvAddr, org.apache.rocketmq.remoting.RPCHook rpcHook) throws MQClientException {
        return start(namesrvAddr, rpcHook, false);
    }

    /**
     * As {@link #start(String)}; with {@code useTls} every connection is TLS (the stock client's
     * {@code setUseTLS}, in its default test mode: any server certificate is trusted).
     */
    static StockAdmin start(String namesrvAddr, boolean useTls) throws MQClientException {
        return start(namesrvAddr, null, useTls);
    }

    private static StockAdmin start(String namesrvAddr, org.apache.rocketmq.remoting.RPCHook rpcHook, boolean useTls)
            throws MQClientException {
        Objects.requireNonNull(namesrvAddr, "namesrvAddr");
        DefaultMQAdminExt admin = rpcHook == null ? new DefaultMQAdminExt(3_000) : new DefaultMQAdminExt(rpcHook, 3_000);
        admin.setUseTLS(useTls);
        admin.setNamesrvAddr(namesrvAddr);
        admin.setInstanceName("compat-admin-" + ProcessHandle.current().pid() + "-" + INSTANCES.incrementAndGet());
        admin.setAdminExtGroup("compat_admin_group_" + INSTANCES.get());
        admin.start();
        return new StockAdmin(admin);
    }

    /** The started stock admin client. */
    DefaultMQAdminExt ext() {
        return admin;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            admin.shutdown();
        }
    }
}
