package org.modmq.acl;

import org.modmq.remoting.protocol.RequestCode;

/**
 * Which requests to a controller only accounts with {@code admin: true} may send. RocketMQ checks nothing
 * on its controller port (ACL 1.0 never covered it, and its 5.x authorization is not wired into the
 * controller either; the request headers only carry the CLUSTER resource with an UPDATE or GET action).
 * modmq asks for a valid signature on every controller request and keeps to admins what an operator does
 * with {@code mqadmin} and a broker never needs:
 *
 * <ul>
 *   <li>CONTROLLER_ELECT_MASTER (1002) with {@code designateElect} other than {@code false}: an operator
 *       naming the new master ({@code mqadmin electMaster}). A broker asking to become master of its own
 *       set sends {@code designateElect=false}; the controller grants that only while the set has no live
 *       master, so any valid account may send it;</li>
 *   <li>UPDATE_CONTROLLER_CONFIG (1009, {@code mqadmin updateControllerConfig});</li>
 *   <li>CLEAN_BROKER_DATA (1011, {@code mqadmin cleanBrokerMetadata}).</li>
 * </ul>
 *
 * Every other controller request (broker heartbeats 904, registration and id allocation 1003/1012/1013,
 * sync-state changes 1001, the reads 1004/1005/1006/1010) needs a valid account only. Stateless.
 */
public final class ControllerAdminRequests {

    /** The header field of CONTROLLER_ELECT_MASTER that tells an operator's election from a broker's. */
    static final String DESIGNATE_ELECT = "designateElect";

    private ControllerAdminRequests() {
    }

    /** @return whether only an admin account may send {@code request} to a controller */
    public static boolean needsAdmin(AccessRequest request) {
        return switch (request.code()) {
            case RequestCode.UPDATE_CONTROLLER_CONFIG, RequestCode.CLEAN_BROKER_DATA -> true;
            case RequestCode.CONTROLLER_ELECT_MASTER -> {
                String designate = request.extFields().get(DESIGNATE_ELECT);
                // Anything but a plain "false" may be read as a designated election: admins only.
                yield designate != null && !designate.trim().equalsIgnoreCase("false");
            }
            default -> false;
        };
    }
}
