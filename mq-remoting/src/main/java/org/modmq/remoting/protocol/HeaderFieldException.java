package org.modmq.remoting.protocol;

/**
 * A custom header field ({@code extFields} entry) is missing or malformed. The remark names the
 * field, e.g. {@code the custom header field 'topic' is missing}. The response code is
 * {@link ResponseCode#SYSTEM_ERROR}, as a stock server answers an undecodable header, unless given.
 */
public final class HeaderFieldException extends ResponseCodeException {

    private static final long serialVersionUID = 1L;

    private final String field;

    /**
     * @param field the header field's name
     * @param remark the remark sent to the client
     */
    public HeaderFieldException(String field, String remark) {
        this(ResponseCode.SYSTEM_ERROR, field, remark);
    }

    /**
     * @param responseCode a {@link ResponseCode} constant
     * @param field the header field's name
     * @param remark the remark sent to the client
     */
    public HeaderFieldException(int responseCode, String field, String remark) {
        super(responseCode, remark);
        this.field = field;
    }

    /** @return the name of the offending header field */
    public String field() {
        return field;
    }
}
