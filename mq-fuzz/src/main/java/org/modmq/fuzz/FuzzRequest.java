package org.modmq.fuzz;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One request as a fuzzer sends it: every field of the remoting command, free of the checks a real
 * client would apply (any code, flag, language byte or version; header fields whose values need not
 * parse; any body). {@link FrameWriter} turns it into frame bytes. Immutable (the body array is
 * shared, not copied: do not change it).
 *
 * @param code          request code, known or not
 * @param serializeType header type byte: 0 JSON, 1 ROCKETMQ (a code or version beyond int16 is only
 *                      expressible in JSON)
 * @param language      language code (ROCKETMQ: the byte; JSON: the name, or the number when unknown)
 * @param version       version ordinal
 * @param opaque        request id; the answer carries it
 * @param flag          flag bits: 1 response, 2 one-way
 * @param remark        remark or null
 * @param extFields     header fields in order; values may be anything
 * @param body          body bytes, never null
 */
public record FuzzRequest(int code, int serializeType, int language, int version, int opaque, int flag,
                          String remark, Map<String, String> extFields, byte[] body) {

    /** Flag bit of a response. */
    public static final int FLAG_RESPONSE = 1;
    /** Flag bit of a one-way request. */
    public static final int FLAG_ONEWAY = 2;
    /** RocketMQ 5.3.3's version ordinal, what a well-behaved client sends. */
    public static final int VERSION_5_3_3 = 479;

    /** Copies the header fields (keeping their order) and checks the type. */
    public FuzzRequest {
        if (serializeType != 0 && serializeType != 1) {
            throw new IllegalArgumentException("serializeType must be 0 (JSON) or 1 (ROCKETMQ): " + serializeType);
        }
        extFields = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(extFields, "extFields")));
        Objects.requireNonNull(body, "body");
    }

    /** A well-formed JSON request from a Java 5.3.3 client. */
    public static FuzzRequest of(int code, int opaque, Map<String, String> extFields, byte[] body) {
        return new FuzzRequest(code, 0, 0, VERSION_5_3_3, opaque, 0, null, extFields, body);
    }

    /** @return whether a server answers it: neither a one-way request nor flagged as a response */
    public boolean expectsAnswer() {
        return (flag & (FLAG_RESPONSE | FLAG_ONEWAY)) == 0;
    }

    /** @return this request with another opaque */
    public FuzzRequest withOpaque(int newOpaque) {
        return new FuzzRequest(code, serializeType, language, version, newOpaque, flag, remark, extFields, body);
    }

    /** @return a short description for failure reports: code, type, flag and the header fields */
    public String describe() {
        StringBuilder text = new StringBuilder("code=").append(code).append(serializeType == 0 ? " JSON" : " ROCKETMQ")
                .append(" lang=").append(language).append(" version=").append(version).append(" opaque=")
                .append(opaque).append(" flag=").append(flag);
        if (remark != null) {
            text.append(" remark=").append(Printable.of(remark, 60));
        }
        text.append(" ext={");
        boolean first = true;
        for (Map.Entry<String, String> field : extFields.entrySet()) {
            text.append(first ? "" : ", ").append(Printable.of(field.getKey(), 40)).append('=')
                    .append(Printable.of(field.getValue(), 80));
            first = false;
        }
        return text.append("} body=").append(body.length).append(" bytes").toString();
    }
}
