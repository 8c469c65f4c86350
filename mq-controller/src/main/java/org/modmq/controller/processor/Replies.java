package org.modmq.controller.processor;

import org.modmq.controller.core.ControllerReply;
import org.modmq.controller.core.LeaderGate;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns controller replies and failures into remoting responses. Stateless. */
final class Replies {

    private static final Logger LOG = LoggerFactory.getLogger(Replies.class);

    private Replies() {
    }

    static RemotingCommand toCommand(RemotingCommand request, ControllerReply reply) {
        RemotingCommand response = RemotingCommand.responseTo(request, reply.code(), reply.remark());
        reply.header().forEach(response::putExtField);
        if (reply.body() != null) {
            response.withBody(Json.encode(reply.body()));
        }
        return response;
    }

    static RemotingCommand failure(RemotingCommand request, Throwable error) {
        if (error instanceof LeaderGate.NotLeaderException notLeader) {
            RemotingCommand response = RemotingCommand.responseTo(request, notLeader.responseCode(), notLeader.remark());
            ControllerRequestProcessor.leaderFields(notLeader).forEach(response::putExtField);
            return response;
        }
        if (error instanceof ResponseCodeException refused) {
            return RemotingCommand.responseTo(request, refused.responseCode(), refused.remark());
        }
        LOG.warn("controller request {} failed", request.code(), error);
        return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR,
                error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage()));
    }
}
