package org.modmq.namesrv.processor;

import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.JsonBodyException;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;

/** Builders for the name server's responses. Stateless. */
final class Replies {

    private Replies() {
    }

    static RemotingCommand success(RemotingCommand request) {
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
    }

    static RemotingCommand success(RemotingCommand request, byte[] body) {
        return success(request).withBody(body);
    }

    static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code, remark);
    }

    /**
     * Parses a request body.
     *
     * @throws ResponseCodeException ({@code SYSTEM_ERROR}, saying what was wrong) if it is not that JSON
     */
    static <T> T decodeBody(byte[] body, Class<T> type) {
        try {
            return Json.decode(body, type);
        } catch (JsonBodyException e) {
            throw new ResponseCodeException(ResponseCode.SYSTEM_ERROR, e.getMessage());
        }
    }
}
