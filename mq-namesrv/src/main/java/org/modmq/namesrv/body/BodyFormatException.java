package org.modmq.namesrv.body;

/** A request body that is not the JSON the request code calls for. The message says what was wrong. */
public final class BodyFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public BodyFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
