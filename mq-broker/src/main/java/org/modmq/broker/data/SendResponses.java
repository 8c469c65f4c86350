package org.modmq.broker.data;

import org.modmq.api.message.BrokerMessage;
import org.modmq.api.message.DelayLevels;
import org.modmq.api.message.MessageProperties;
import org.modmq.api.message.PutStatus;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.store.PutResult;

/**
 * Send answers (docs/protocol.md section 7.2; section 15, traps 2 and 3): a stored message is answered with exactly
 * {@code msgId} (offsetMsgId; comma-joined for a batch), {@code queueId}, {@code queueOffset},
 * {@code transactionId} (UNIQ_KEY), {@code MSG_REGION} and {@code TRACE_ON}; every answer, errors too,
 * carries the last two because the stock client reads them without a null check. Stateless.
 */
final class SendResponses {

    private SendResponses() {
    }

    static RemotingCommand of(RemotingCommand request, PutResult result, BrokerMessage first) {
        PutStatus status = result.status();
        boolean stored = status == PutStatus.PUT_OK || status == PutStatus.FLUSH_DISK_TIMEOUT
                || status == PutStatus.FLUSH_SLAVE_TIMEOUT || status == PutStatus.SLAVE_NOT_AVAILABLE;
        if (!stored) {
            return error(request, status.responseCode(), remark(result));
        }
        RemotingCommand response = RemotingCommand.responseTo(request, status.responseCode(),
                status == PutStatus.PUT_OK ? null : remark(result));
        response.putExtField("msgId", result.msgIdList());
        // A delayed message is answered with the queue it was sent to (RocketMQ does), not its schedule queue.
        String realQueue = DelayLevels.SCHEDULE_TOPIC.equals(first.topic())
                ? MessageProperties.value(first.properties(), MessageProperties.REAL_QID) : null;
        response.putExtField("queueId", realQueue != null ? realQueue : Integer.toString(first.queueId()));
        response.putExtField("queueOffset", result.queueOffset());
        String uniqKey = MessageProperties.value(first.properties(), MessageProperties.UNIQ_KEY);
        if (uniqKey != null) {
            response.putExtField("transactionId", uniqKey);
        }
        return withRegion(response);
    }

    static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return withRegion(RemotingCommand.responseTo(request, code, remark));
    }

    private static RemotingCommand withRegion(RemotingCommand response) {
        response.putExtField(MessageProperties.MSG_REGION, BrokerProperties.DEFAULT_REGION);
        response.putExtField(MessageProperties.TRACE_ON, "true");
        return response;
    }

    private static String remark(PutResult result) {
        String detail = result.detail().isEmpty() ? "" : ": " + result.detail();
        return switch (result.status()) {
            case DISK_FULL -> "service not available now: the disk is full, messages are refused" + detail;
            case SERVICE_NOT_AVAILABLE -> "service not available now: the message store is not accepting writes"
                    + detail;
            case MESSAGE_ILLEGAL -> "the message is illegal" + detail;
            case PROPERTIES_SIZE_EXCEEDED -> "the message properties are too large" + detail;
            case FLUSH_DISK_TIMEOUT -> "stored, but not flushed to disk in time" + detail;
            case FLUSH_SLAVE_TIMEOUT -> "stored, but not replicated in time" + detail;
            case SLAVE_NOT_AVAILABLE -> "stored, but no replica is in sync" + detail;
            default -> "store error " + result.status() + detail;
        };
    }

    static int codeOf(PutStatus status) {
        return status == PutStatus.PUT_OK ? ResponseCode.SUCCESS : status.responseCode();
    }
}
