package org.modmq.fuzz;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The requests a fuzzer knows how to shape: per request code, the header fields RocketMQ's typed
 * header for it carries (named as the stock client names them) with the kind of value each takes,
 * and the kind of body. Field names come from RocketMQ's request headers; a server under test may
 * read fewer. Immutable.
 */
public final class RequestCatalog {

    /** What a header field holds; {@link RequestGenerator} draws plausible values by kind. */
    public enum FieldKind {
        TOPIC, GROUP, QUEUE_ID, INT, LONG, OFFSET, TIMESTAMP, HOLD_MILLIS, BOOL, PROPERTIES, EXPRESSION,
        EXPRESSION_TYPE, MSG_ID, TEXT, CLIENT_ID, BROKER_NAME, CLUSTER, ADDR, PERM, SYS_FLAG, BROKER_ID, CRC
    }

    /** What a request's body holds. */
    public enum BodyKind {
        NONE, MESSAGE, BATCH, HEARTBEAT, LOCK, SUBSCRIPTION_GROUP, SUBSCRIPTION_GROUP_LIST, TOPIC_CONFIG_LIST,
        CONFIG_PROPERTIES, REGISTER_BROKER, DATA_VERSION, TOPIC_ROUTE, CLIENT_CONFIG, ANY_JSON
    }

    /**
     * One request code's shape.
     *
     * @param code   the request code
     * @param name   RocketMQ's name of the code
     * @param fields header field name → kind, in the stock client's order
     * @param body   the body kind
     * @param oneway whether the stock client sends it one-way only, so that a server need not answer it
     *               (END_TRANSACTION: RocketMQ answers nothing for the outcome UNKNOWN)
     */
    public record Shape(int code, String name, Map<String, FieldKind> fields, BodyKind body, boolean oneway) {
    }

    private static final String SEND_FIELDS = "producerGroup:GROUP topic:TOPIC defaultTopic:TOPIC "
            + "defaultTopicQueueNums:INT queueId:QUEUE_ID sysFlag:SYS_FLAG bornTimestamp:TIMESTAMP flag:INT "
            + "properties:PROPERTIES reconsumeTimes:INT unitMode:BOOL batch:BOOL maxReconsumeTimes:INT";
    private static final String SEND_V2_FIELDS = "a:GROUP b:TOPIC c:TOPIC d:INT e:QUEUE_ID f:SYS_FLAG g:TIMESTAMP "
            + "h:INT i:PROPERTIES j:INT k:BOOL l:INT m:BOOL";
    private static final String PULL_FIELDS = "consumerGroup:GROUP topic:TOPIC queueId:QUEUE_ID queueOffset:OFFSET "
            + "maxMsgNums:INT sysFlag:SYS_FLAG commitOffset:OFFSET suspendTimeoutMillis:HOLD_MILLIS "
            + "subscription:EXPRESSION subVersion:LONG expressionType:EXPRESSION_TYPE maxMsgBytes:INT";
    private static final String BROKER_ID_FIELDS = "brokerName:BROKER_NAME brokerAddr:ADDR clusterName:CLUSTER "
            + "brokerId:BROKER_ID";

    /** Requests a broker serves (data path, client management, admin, broker to broker). */
    public static final RequestCatalog BROKER = new RequestCatalog(List.of(
            shape(10, "SEND_MESSAGE", SEND_FIELDS, BodyKind.MESSAGE),
            shape(310, "SEND_MESSAGE_V2", SEND_V2_FIELDS, BodyKind.MESSAGE),
            shape(320, "SEND_BATCH_MESSAGE", SEND_V2_FIELDS, BodyKind.BATCH),
            shape(324, "SEND_REPLY_MESSAGE", SEND_FIELDS, BodyKind.MESSAGE),
            shape(325, "SEND_REPLY_MESSAGE_V2", SEND_V2_FIELDS, BodyKind.MESSAGE),
            shape(11, "PULL_MESSAGE", PULL_FIELDS, BodyKind.NONE),
            shape(361, "LITE_PULL_MESSAGE", PULL_FIELDS, BodyKind.NONE),
            shape(12, "QUERY_MESSAGE", "topic:TOPIC key:TEXT maxNum:INT beginTimestamp:TIMESTAMP "
                    + "endTimestamp:TIMESTAMP _UNIQUE_KEY_QUERY:BOOL", BodyKind.NONE),
            shape(13, "QUERY_BROKER_OFFSET", "", BodyKind.NONE),
            shape(14, "QUERY_CONSUMER_OFFSET", "consumerGroup:GROUP topic:TOPIC queueId:QUEUE_ID "
                    + "setZeroIfNotFound:BOOL", BodyKind.NONE),
            shape(15, "UPDATE_CONSUMER_OFFSET", "consumerGroup:GROUP topic:TOPIC queueId:QUEUE_ID "
                    + "commitOffset:OFFSET", BodyKind.NONE),
            shape(29, "SEARCH_OFFSET_BY_TIMESTAMP", "topic:TOPIC queueId:QUEUE_ID timestamp:TIMESTAMP "
                    + "boundaryType:TEXT", BodyKind.NONE),
            shape(30, "GET_MAX_OFFSET", "topic:TOPIC queueId:QUEUE_ID committed:BOOL", BodyKind.NONE),
            shape(31, "GET_MIN_OFFSET", "topic:TOPIC queueId:QUEUE_ID", BodyKind.NONE),
            shape(32, "GET_EARLIEST_MSG_STORETIME", "topic:TOPIC queueId:QUEUE_ID", BodyKind.NONE),
            shape(33, "VIEW_MESSAGE_BY_ID", "offset:OFFSET", BodyKind.NONE),
            shape(34, "HEART_BEAT", "", BodyKind.HEARTBEAT),
            shape(35, "UNREGISTER_CLIENT", "clientID:CLIENT_ID producerGroup:GROUP consumerGroup:GROUP", BodyKind.NONE),
            shape(36, "CONSUMER_SEND_MSG_BACK", "offset:OFFSET group:GROUP delayLevel:INT originMsgId:MSG_ID "
                    + "originTopic:TOPIC unitMode:BOOL maxReconsumeTimes:INT", BodyKind.NONE),
            oneway(shape(37, "END_TRANSACTION", "producerGroup:GROUP tranStateTableOffset:OFFSET "
                    + "commitLogOffset:OFFSET commitOrRollback:INT fromTransactionCheck:BOOL msgId:MSG_ID "
                    + "transactionId:TEXT", BodyKind.NONE)),
            shape(38, "GET_CONSUMER_LIST_BY_GROUP", "consumerGroup:GROUP", BodyKind.NONE),
            shape(41, "LOCK_BATCH_MQ", "", BodyKind.LOCK),
            shape(42, "UNLOCK_BATCH_MQ", "", BodyKind.LOCK),
            shape(46, "CHECK_CLIENT_CONFIG", "", BodyKind.CLIENT_CONFIG),
            shape(370, "RECALL_MESSAGE", "producerGroup:GROUP topic:TOPIC recallHandle:TEXT", BodyKind.NONE),
            shape(400, "QUERY_ASSIGNMENT", "", BodyKind.ANY_JSON),
            shape(401, "SET_MESSAGE_REQUEST_MODE", "", BodyKind.ANY_JSON),
            shape(17, "UPDATE_AND_CREATE_TOPIC", "topic:TOPIC defaultTopic:TOPIC readQueueNums:INT "
                    + "writeQueueNums:INT perm:PERM topicFilterType:TEXT topicSysFlag:INT order:BOOL attributes:TEXT",
                    BodyKind.NONE),
            shape(18, "UPDATE_AND_CREATE_TOPIC_LIST", "", BodyKind.TOPIC_CONFIG_LIST),
            shape(21, "GET_ALL_TOPIC_CONFIG", "", BodyKind.NONE),
            shape(22, "GET_TOPIC_CONFIG_LIST", "", BodyKind.NONE),
            shape(23, "GET_TOPIC_NAME_LIST", "", BodyKind.NONE),
            shape(25, "UPDATE_BROKER_CONFIG", "", BodyKind.CONFIG_PROPERTIES),
            shape(26, "GET_BROKER_CONFIG", "", BodyKind.NONE),
            shape(28, "GET_BROKER_RUNTIME_INFO", "", BodyKind.NONE),
            shape(43, "GET_ALL_CONSUMER_OFFSET", "", BodyKind.NONE),
            shape(45, "GET_ALL_DELAY_OFFSET", "", BodyKind.NONE),
            shape(47, "GET_CLIENT_CONFIG", "", BodyKind.NONE),
            shape(60, "GET_TIMER_CHECK_POINT", "", BodyKind.NONE),
            shape(61, "GET_TIMER_METRICS", "", BodyKind.NONE),
            shape(200, "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP", "", BodyKind.SUBSCRIPTION_GROUP),
            shape(201, "GET_ALL_SUBSCRIPTIONGROUP_CONFIG", "", BodyKind.NONE),
            shape(202, "GET_TOPIC_STATS_INFO", "topic:TOPIC", BodyKind.NONE),
            shape(203, "GET_CONSUMER_CONNECTION_LIST", "consumerGroup:GROUP", BodyKind.NONE),
            shape(204, "GET_PRODUCER_CONNECTION_LIST", "producerGroup:GROUP", BodyKind.NONE),
            shape(207, "DELETE_SUBSCRIPTIONGROUP", "groupName:GROUP cleanOffset:BOOL", BodyKind.NONE),
            shape(208, "GET_CONSUME_STATS", "consumerGroup:GROUP topic:TOPIC", BodyKind.NONE),
            shape(211, "RESET_CONSUMER_OFFSET_IN_CONSUMER", "topic:TOPIC group:GROUP timestamp:TIMESTAMP "
                    + "isForce:BOOL", BodyKind.NONE),
            shape(212, "RESET_CONSUMER_OFFSET_IN_BROKER", "topic:TOPIC group:GROUP timestamp:TIMESTAMP "
                    + "isForce:BOOL", BodyKind.NONE),
            shape(215, "DELETE_TOPIC_IN_BROKER", "topic:TOPIC", BodyKind.NONE),
            shape(222, "INVOKE_BROKER_TO_RESET_OFFSET", "topic:TOPIC group:GROUP timestamp:TIMESTAMP isForce:BOOL "
                    + "queueId:QUEUE_ID offset:OFFSET", BodyKind.NONE),
            shape(223, "INVOKE_BROKER_TO_GET_CONSUMER_STATUS", "topic:TOPIC group:GROUP clientAddr:ADDR", BodyKind.NONE),
            shape(225, "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST", "", BodyKind.SUBSCRIPTION_GROUP_LIST),
            shape(300, "QUERY_TOPIC_CONSUME_BY_WHO", "topic:TOPIC", BodyKind.NONE),
            shape(303, "QUERY_CONSUME_TIME_SPAN", "topic:TOPIC group:GROUP", BodyKind.NONE),
            shape(305, "GET_SYSTEM_TOPIC_LIST_FROM_BROKER", "", BodyKind.NONE),
            shape(307, "GET_CONSUMER_RUNNING_INFO", "consumerGroup:GROUP clientId:CLIENT_ID jstackEnable:BOOL",
                    BodyKind.NONE),
            shape(308, "QUERY_CORRECTION_OFFSET", "topic:TOPIC compareGroup:GROUP filterGroups:TEXT", BodyKind.NONE),
            shape(309, "CONSUME_MESSAGE_DIRECTLY", "consumerGroup:GROUP clientId:CLIENT_ID msgId:MSG_ID "
                    + "brokerName:BROKER_NAME topic:TOPIC", BodyKind.NONE),
            shape(314, "CLONE_GROUP_OFFSET", "srcGroup:GROUP destGroup:GROUP topic:TOPIC offline:BOOL", BodyKind.NONE),
            shape(315, "VIEW_BROKER_STATS_DATA", "statsName:TEXT statsKey:TEXT", BodyKind.NONE),
            shape(317, "GET_BROKER_CONSUME_STATS", "isOrder:BOOL isClusterMode:BOOL consumeTimeoutMillis:LONG",
                    BodyKind.NONE),
            shape(321, "QUERY_CONSUME_QUEUE", "topic:TOPIC queueId:QUEUE_ID index:OFFSET count:INT "
                    + "consumerGroup:GROUP", BodyKind.NONE),
            shape(323, "RESUME_CHECK_HALF_MESSAGE", "msgId:MSG_ID topic:TOPIC", BodyKind.NONE),
            shape(328, "GET_ALL_PRODUCER_INFO", "", BodyKind.NONE),
            shape(343, "QUERY_TOPICS_BY_CONSUMER", "group:GROUP", BodyKind.NONE),
            shape(345, "QUERY_SUBSCRIPTION_BY_CONSUMER", "group:GROUP topic:TOPIC", BodyKind.NONE),
            shape(351, "GET_TOPIC_CONFIG", "topic:TOPIC", BodyKind.NONE),
            shape(352, "GET_SUBSCRIPTIONGROUP_CONFIG", "group:GROUP", BodyKind.NONE),
            shape(353, "UPDATE_AND_GET_GROUP_FORBIDDEN", "group:GROUP topic:TOPIC readable:BOOL", BodyKind.NONE),
            shape(402, "GET_ALL_MESSAGE_REQUEST_MODE", "", BodyKind.NONE),
            shape(513, "UPDATE_AND_CREATE_STATIC_TOPIC", "topic:TOPIC readQueueNums:INT writeQueueNums:INT perm:PERM",
                    BodyKind.ANY_JSON),
            shape(905, "NOTIFY_MIN_BROKER_ID_CHANGE", "minBrokerId:BROKER_ID brokerName:BROKER_NAME "
                    + "minBrokerAddr:ADDR offlineBrokerAddr:ADDR haBrokerAddr:ADDR", BodyKind.NONE),
            shape(907, "GET_BROKER_HA_STATUS", "", BodyKind.NONE),
            shape(1007, "GET_BROKER_EPOCH_CACHE", "", BodyKind.NONE)));

    /** Requests a name server serves. */
    public static final RequestCatalog NAMESRV = new RequestCatalog(List.of(
            shape(100, "PUT_KV_CONFIG", "namespace:TEXT key:TEXT value:TEXT", BodyKind.NONE),
            shape(101, "GET_KV_CONFIG", "namespace:TEXT key:TEXT", BodyKind.NONE),
            shape(102, "DELETE_KV_CONFIG", "namespace:TEXT key:TEXT", BodyKind.NONE),
            shape(103, "REGISTER_BROKER", BROKER_ID_FIELDS + " haServerAddr:ADDR heartbeatTimeoutMillis:LONG "
                    + "enableActingMaster:BOOL compressed:BOOL bodyCrc32:CRC", BodyKind.REGISTER_BROKER),
            shape(104, "UNREGISTER_BROKER", BROKER_ID_FIELDS, BodyKind.NONE),
            shape(105, "GET_ROUTEINFO_BY_TOPIC", "topic:TOPIC acceptStandardJsonOnly:BOOL", BodyKind.NONE),
            shape(106, "GET_BROKER_CLUSTER_INFO", "", BodyKind.NONE),
            shape(205, "WIPE_WRITE_PERM_OF_BROKER", "brokerName:BROKER_NAME", BodyKind.NONE),
            shape(206, "GET_ALL_TOPIC_LIST_FROM_NAMESERVER", "", BodyKind.NONE),
            shape(216, "DELETE_TOPIC_IN_NAMESRV", "topic:TOPIC clusterName:CLUSTER", BodyKind.NONE),
            shape(217, "REGISTER_TOPIC_IN_NAMESRV", "topic:TOPIC", BodyKind.TOPIC_ROUTE),
            shape(219, "GET_KVLIST_BY_NAMESPACE", "namespace:TEXT", BodyKind.NONE),
            shape(224, "GET_TOPICS_BY_CLUSTER", "cluster:CLUSTER", BodyKind.NONE),
            shape(304, "GET_SYSTEM_TOPIC_LIST_FROM_NS", "", BodyKind.NONE),
            shape(311, "GET_UNIT_TOPIC_LIST", "", BodyKind.NONE),
            shape(312, "GET_HAS_UNIT_SUB_TOPIC_LIST", "", BodyKind.NONE),
            shape(313, "GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST", "", BodyKind.NONE),
            shape(318, "UPDATE_NAMESRV_CONFIG", "", BodyKind.CONFIG_PROPERTIES),
            shape(319, "GET_NAMESRV_CONFIG", "", BodyKind.NONE),
            shape(322, "QUERY_DATA_VERSION", BROKER_ID_FIELDS, BodyKind.DATA_VERSION),
            shape(327, "ADD_WRITE_PERM_OF_BROKER", "brokerName:BROKER_NAME", BodyKind.NONE),
            shape(901, "GET_BROKER_MEMBER_GROUP", "clusterName:CLUSTER brokerName:BROKER_NAME", BodyKind.NONE),
            shape(904, "BROKER_HEARTBEAT", BROKER_ID_FIELDS + " epoch:INT maxOffset:OFFSET confirmOffset:OFFSET "
                    + "heartbeatTimeoutMills:LONG electionPriority:INT", BodyKind.NONE)));

    private final List<Shape> shapes;
    private final Map<Integer, Shape> byCode;

    private RequestCatalog(List<Shape> shapes) {
        this.shapes = List.copyOf(shapes);
        Map<Integer, Shape> codes = new LinkedHashMap<>();
        shapes.forEach(shape -> codes.put(shape.code(), shape));
        this.byCode = Collections.unmodifiableMap(codes);
    }

    /** @return a catalog with the shapes of both */
    public RequestCatalog and(RequestCatalog other) {
        List<Shape> all = new ArrayList<>(shapes);
        other.shapes.stream().filter(shape -> !byCode.containsKey(shape.code())).forEach(all::add);
        return new RequestCatalog(all);
    }

    /** @return every shape, in declaration order */
    public List<Shape> shapes() {
        return shapes;
    }

    /** @return whether {@code code} is in this catalog */
    public boolean knows(int code) {
        return byCode.containsKey(code);
    }

    /** @return the shape of {@code code}, or null */
    public Shape shape(int code) {
        return byCode.get(code);
    }

    private static Shape shape(int code, String name, String fields, BodyKind body) {
        Map<String, FieldKind> parsed = new LinkedHashMap<>();
        for (String field : fields.split(" ")) {
            if (!field.isEmpty()) {
                int colon = field.indexOf(':');
                parsed.put(field.substring(0, colon), FieldKind.valueOf(field.substring(colon + 1)));
            }
        }
        return new Shape(code, name, Collections.unmodifiableMap(parsed), body, false);
    }

    private static Shape oneway(Shape shape) {
        return new Shape(shape.code(), shape.name(), shape.fields(), shape.body(), true);
    }
}
