package org.modmq.ha.pull;

/**
 * A replica will not take what its master sent (stale master, inconsistent epochs, bytes that do not fit
 * its log); the connection is closed and nothing more is written. No RocketMQ response code applies.
 */
final class RefusalException extends Exception {

    private static final long serialVersionUID = 1L;

    RefusalException(String message) {
        super(message);
    }
}
