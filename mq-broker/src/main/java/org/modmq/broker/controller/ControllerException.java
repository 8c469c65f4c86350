package org.modmq.broker.controller;

/** A controller answered a request with a code other than SUCCESS. */
final class ControllerException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final int code;

    ControllerException(int code, String message) {
        super(message);
        this.code = code;
    }

    /** RocketMQ's response code (CONTROLLER_NOT_LEADER 2007, CONTROLLER_BROKER_METADATA_NOT_EXIST 2008, ...). */
    int code() {
        return code;
    }
}
