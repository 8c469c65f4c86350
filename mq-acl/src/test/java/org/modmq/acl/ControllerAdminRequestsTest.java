package org.modmq.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.remoting.protocol.RequestCode;

/** The controller's admin-only requests, alone and inside a validator built for a controller. */
class ControllerAdminRequestsTest {

    private static final byte[] NO_BODY = new byte[0];

    private final PlainAclValidator controller = new PlainAclValidator(PlainAclFileTest.parse(PlainAclValidatorTest.RULES),
            ControllerAdminRequests::needsAdmin);

    private static AccessRequest elect(String designate, String accessKey, String secret) {
        Map<String, String> fields = designate == null
                ? Map.of("clusterName", "c", "brokerName", "b", "brokerId", "1")
                : Map.of("clusterName", "c", "brokerName", "b", "brokerId", "1", "designateElect", designate);
        return PlainAclValidatorTest.signed(RequestCode.CONTROLLER_ELECT_MASTER, fields, NO_BODY, accessKey, secret,
                "127.0.0.1");
    }

    @Test
    void anOperatorsElectionConfigChangeAndCleanUpNeedAnAdmin() {
        for (String designate : new String[] {"true", "TRUE", "yes"}) {
            assertThat(ControllerAdminRequests.needsAdmin(elect(designate, "appUser1", "appSecret1"))).as(designate).isTrue();
        }
        assertThat(ControllerAdminRequests.needsAdmin(new AccessRequest(RequestCode.UPDATE_CONTROLLER_CONFIG, 0, Map.of(),
                NO_BODY, "127.0.0.1"))).isTrue();
        assertThat(ControllerAdminRequests.needsAdmin(new AccessRequest(RequestCode.CLEAN_BROKER_DATA, 0, Map.of(),
                NO_BODY, "127.0.0.1"))).isTrue();
    }

    @Test
    void brokerCallsAndReadsNeedAValidAccountOnly() {
        assertThat(ControllerAdminRequests.needsAdmin(elect("false", "appUser1", "appSecret1"))).isFalse();
        assertThat(ControllerAdminRequests.needsAdmin(elect(null, "appUser1", "appSecret1"))).isFalse();
        for (int code : new int[] {RequestCode.BROKER_HEARTBEAT, RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET,
                RequestCode.CONTROLLER_REGISTER_BROKER, RequestCode.CONTROLLER_GET_REPLICA_INFO,
                RequestCode.CONTROLLER_GET_METADATA_INFO, RequestCode.CONTROLLER_GET_SYNC_STATE_DATA,
                RequestCode.GET_CONTROLLER_CONFIG, RequestCode.CONTROLLER_GET_NEXT_BROKER_ID,
                RequestCode.CONTROLLER_APPLY_BROKER_ID}) {
            assertThat(ControllerAdminRequests.needsAdmin(new AccessRequest(code, 0, Map.of(), NO_BODY, "127.0.0.1")))
                    .as("code %d", code).isFalse();
        }
    }

    @Test
    void aControllersValidatorRefusesANonAdminsDesignatedElectionAndLetsTheBrokerFormThrough() {
        assertThatThrownBy(() -> controller.validate(elect("true", "appUser1", "appSecret1")))
                .isInstanceOf(AclDeniedException.class)
                .hasMessage("Need admin permission for request code=1002, but accessKey=appUser1 is not");
        assertThatCode(() -> controller.validate(elect("false", "appUser1", "appSecret1"))).doesNotThrowAnyException();
        assertThatCode(() -> controller.validate(elect("true", "adminLimited", "adminSecret2"))).doesNotThrowAnyException();
        assertThatThrownBy(() -> controller.validate(elect("false", "appUser1", "wrongSecret")))
                .hasMessage("Check signature failed for accessKey=appUser1");
    }

    @Test
    void aControllersValidatorTakesABrokerHeartbeatFromAnyValidAccount() {
        AccessRequest heartbeat = PlainAclValidatorTest.signed(RequestCode.BROKER_HEARTBEAT, Map.of("clusterName", "c",
                "brokerName", "b", "brokerAddr", "127.0.0.1:10911", "brokerId", "1"), NO_BODY, "appUser1", "appSecret1",
                "127.0.0.1");
        assertThatCode(() -> controller.validate(heartbeat)).doesNotThrowAnyException();
        // The name server's rule set keeps 904 for admins (it registers brokers); the controller's does not.
        assertThatThrownBy(() -> new PlainAclValidator(PlainAclFileTest.parse(PlainAclValidatorTest.RULES))
                .validate(heartbeat)).hasMessageContaining("Need admin permission for request code=904");
    }
}
