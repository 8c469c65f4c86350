package org.modmq.namesrv.body;

import java.util.Map;

/**
 * The members of one broker set, answered by {@code GET_BROKER_MEMBER_GROUP} inside
 * {@link BrokerMemberGroupResponse}.
 *
 * @param brokerAddrs broker id to address
 * @param brokerName  the broker set
 * @param cluster     its cluster
 */
public record BrokerMemberGroup(Map<Long, String> brokerAddrs, String brokerName, String cluster) {
}
