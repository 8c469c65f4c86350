package org.modmq.namesrv.body;

/**
 * Body of the {@code GET_BROKER_MEMBER_GROUP} answer ({@code GetBrokerMemberGroupResponseBody}).
 *
 * @param brokerMemberGroup the group
 */
public record BrokerMemberGroupResponse(BrokerMemberGroup brokerMemberGroup) {
}
