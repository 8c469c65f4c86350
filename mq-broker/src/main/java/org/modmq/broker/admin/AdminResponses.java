package org.modmq.broker.admin;

import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.ResponseCode;

/** Building blocks of the admin answers. Stateless. */
final class AdminResponses {

    private AdminResponses() {
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

    static RemotingCommand unsupported(RemotingCommand request) {
        return error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                " request type " + request.code() + " not supported");
    }
}
