package org.modmq.remoting.netty;

/**
 * Told of every answer a server writes, so that a server can measure its request handling without the
 * remoting layer knowing of a metrics library ({@link RpcLatencyMetrics} is the one the servers use).
 * Called on an I/O or processor thread once the answer's write has finished (or was dropped for a
 * one-way request); it must be quick and must not block or throw.
 */
@FunctionalInterface
public interface RpcObserver {

    /** Observes nothing: the default of a server. */
    RpcObserver NONE = (requestCode, responseCode, result, held, elapsedNanos) -> { };

    /** How the answer ended, with RocketMQ's {@code result} label values. */
    enum Result {
        SUCCESS("success"),
        ONEWAY("oneway"),
        CANCELLED("cancelled"),
        WRITE_CHANNEL_FAILED("write_channel_failed");

        private final String label;

        Result(String label) {
            this.label = label;
        }

        /** The value RocketMQ's {@code rocketmq_rpc_latency} carries in its {@code result} label. */
        public String label() {
            return label;
        }
    }

    /**
     * @param requestCode the request's code
     * @param responseCode the answer's code
     * @param result whether the answer was written
     * @param held whether the processor answered later than it returned (a long-polling pull, a send
     *     waiting for its flush)
     * @param elapsedNanos from the request's dispatch to the end of the answer's write
     */
    void answered(int requestCode, int responseCode, Result result, boolean held, long elapsedNanos);
}
