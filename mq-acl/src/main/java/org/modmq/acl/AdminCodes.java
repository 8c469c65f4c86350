package org.modmq.acl;

import java.util.Set;

/**
 * Request codes only accounts with {@code admin: true} may send. RocketMQ's ACL 1.0 lists five
 * (17, 25, 215, 200, 207); modmq adds every other request that changes a broker's or a name
 * server's state on an operator's behalf: the topic and group list forms, offset resets and clones,
 * file clean-ups, static topics, consumer suspension, and at the name server broker
 * (un)registration, broker heartbeats, write-permission changes, topic registration and deletion,
 * KV and configuration updates. Stateless.
 */
public final class AdminCodes {

    private static final Set<Integer> CODES = Set.of(
            // broker
            17, // UPDATE_AND_CREATE_TOPIC
            18, // UPDATE_AND_CREATE_TOPIC_LIST
            25, // UPDATE_BROKER_CONFIG
            27, // TRIGGER_DELETE_FILES
            200, // UPDATE_AND_CREATE_SUBSCRIPTIONGROUP
            207, // DELETE_SUBSCRIPTIONGROUP
            209, // SUSPEND_CONSUMER
            210, // RESUME_CONSUMER
            212, // RESET_CONSUMER_OFFSET_IN_BROKER
            213, // ADJUST_CONSUMER_THREAD_POOL
            215, // DELETE_TOPIC_IN_BROKER
            222, // INVOKE_BROKER_TO_RESET_OFFSET
            225, // UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST
            306, // CLEAN_EXPIRED_CONSUMEQUEUE
            314, // CLONE_GROUP_OFFSET
            316, // CLEAN_UNUSED_TOPIC
            329, // DELETE_EXPIRED_COMMITLOG
            353, // UPDATE_AND_GET_GROUP_FORBIDDEN
            513, // UPDATE_AND_CREATE_STATIC_TOPIC
            1008, // NOTIFY_BROKER_ROLE_CHANGED (from a controller, signed with its inner credentials)
            // name server
            100, // PUT_KV_CONFIG
            102, // DELETE_KV_CONFIG
            103, // REGISTER_BROKER
            104, // UNREGISTER_BROKER
            205, // WIPE_WRITE_PERM_OF_BROKER
            216, // DELETE_TOPIC_IN_NAMESRV
            217, // REGISTER_TOPIC_IN_NAMESRV
            318, // UPDATE_NAMESRV_CONFIG
            327, // ADD_WRITE_PERM_OF_BROKER
            904); // BROKER_HEARTBEAT

    private AdminCodes() {
    }

    /** @return whether {@code code} needs an admin account */
    public static boolean needsAdmin(int code) {
        return CODES.contains(code);
    }

    /** @return every admin-only code */
    public static Set<Integer> all() {
        return CODES;
    }
}
