package org.modmq.bench;

/** A workload could not run or could not finish (broker unreachable, nothing delivered in time). */
final class BenchException extends Exception {

    private static final long serialVersionUID = 1L;

    BenchException(String message) {
        super(message);
    }

    BenchException(String message, Throwable cause) {
        super(message, cause);
    }
}
