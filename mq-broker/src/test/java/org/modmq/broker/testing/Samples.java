package org.modmq.broker.testing;

/** Wire samples recorded from stock clients (their shapes: docs/protocol.md section 4.2). */
public final class Samples {

    /** Observed from a stock 5.3.3 push consumer (docs/protocol.md section 4.2). */
    public static final String PUSH_CONSUMER_HEARTBEAT = "{\"clientID\":\"127.0.0.1@pushinst\",\"consumerDataSet\":[{"
            + "\"consumeFromWhere\":\"CONSUME_FROM_FIRST_OFFSET\",\"consumeType\":\"CONSUME_PASSIVELY\","
            + "\"groupName\":\"pushg\",\"messageModel\":\"CLUSTERING\",\"subscriptionDataSet\":[{"
            + "\"classFilterMode\":false,\"codeSet\":[2598919,2598920],\"expressionType\":\"TAG\","
            + "\"subString\":\"TagA || TagB\",\"subVersion\":1796009226087,\"tagsSet\":[\"TagA\",\"TagB\"],"
            + "\"topic\":\"TopicA\"},{\"classFilterMode\":false,\"codeSet\":[],\"expressionType\":\"TAG\","
            + "\"subString\":\"*\",\"subVersion\":1796009226116,\"tagsSet\":[],\"topic\":\"%RETRY%pushg\"}],"
            + "\"unitMode\":false}],\"heartbeatFingerprint\":0,\"producerDataSet\":[{\"groupName\":"
            + "\"CLIENT_INNER_PRODUCER\"}],\"withoutSub\":false}";

    private Samples() {
    }
}
