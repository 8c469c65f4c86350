package org.modmq.controller.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * The answer to one controller request, before it becomes a remoting command.
 *
 * @param code   a {@link ResponseCode}
 * @param remark the remark, or null
 * @param header response header fields (null values are left out)
 * @param body   a JSON body object, or null for none
 */
public record ControllerReply(int code, String remark, Map<String, Object> header, Object body) {

    public ControllerReply {
        header = Collections.unmodifiableMap(new LinkedHashMap<>(header == null ? Map.of() : header));
    }

    /** @return a success with these header fields and body */
    public static ControllerReply success(Map<String, Object> header, Object body) {
        return new ControllerReply(ResponseCode.SUCCESS, null, header, body);
    }

    /** @return a refusal with no header */
    public static ControllerReply error(int code, String remark) {
        return new ControllerReply(code, remark, Map.of(), null);
    }

    /** @return a copy with another code and remark */
    public ControllerReply withCode(int newCode, String newRemark) {
        return new ControllerReply(newCode, newRemark, header, body);
    }
}
