package org.modmq.remoting.protocol;

/**
 * A request failed with a RocketMQ response code and a remark meant for the client. Thrown by a
 * request processor (directly or through its future), it is answered by the remoting layer with
 * exactly this code and remark; no stack trace is logged.
 */
public class ResponseCodeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int responseCode;

    /**
     * @param responseCode a {@link ResponseCode} constant
     * @param remark the remark sent to the client
     */
    public ResponseCodeException(int responseCode, String remark) {
        super(remark);
        this.responseCode = responseCode;
    }

    /** @return the response code to answer with */
    public int responseCode() {
        return responseCode;
    }

    /** @return the remark to answer with */
    public String remark() {
        return getMessage();
    }
}
