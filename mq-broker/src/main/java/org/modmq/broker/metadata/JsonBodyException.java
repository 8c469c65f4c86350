package org.modmq.broker.metadata;

/** A JSON body or file that does not have the expected shape. Maps to SYSTEM_ERROR or INVALID_PARAMETER. */
public final class JsonBodyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public JsonBodyException(String message, Throwable cause) {
        super(message, cause);
    }
}
