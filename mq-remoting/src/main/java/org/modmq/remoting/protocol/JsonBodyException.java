package org.modmq.remoting.protocol;

/** A JSON body could not be encoded or decoded; answered as {@link ResponseCode#SYSTEM_ERROR}. */
public final class JsonBodyException extends ResponseCodeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong, sent as the remark
     * @param cause the parser's exception, or null
     */
    public JsonBodyException(String message, Throwable cause) {
        super(ResponseCode.SYSTEM_ERROR, message);
        if (cause != null) {
            initCause(cause);
        }
    }
}
