package org.modmq.broker.processor;

import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;

/** Building blocks of processor answers. Stateless. */
final class Responses {

    private Responses() {
    }

    static RemotingCommand success(RemotingCommand request) {
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS, null);
    }

    static RemotingCommand json(RemotingCommand request, Object body) {
        return success(request).withBody(Json.encode(body));
    }

    static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code, remark);
    }

    static ResponseCodeException fail(int code, String remark) {
        return new ResponseCodeException(code, remark);
    }
}
