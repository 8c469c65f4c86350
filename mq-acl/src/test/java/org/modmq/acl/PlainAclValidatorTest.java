package org.modmq.acl;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;

/** Decisions of the validator on requests signed as a stock client signs them. */
class PlainAclValidatorTest {

    static final String RULES = """
            globalWhiteRemoteAddresses:
              - 10.10.103.*
            accounts:
              - accessKey: appUser1
                secretKey: appSecret1
                admin: false
                defaultTopicPerm: DENY
                defaultGroupPerm: SUB
                topicPerms:
                  - TopicA=PUB|SUB
                  - TopicSub=SUB
                  - TopicDeny=DENY
                groupPerms:
                  - groupDeny=DENY
              - accessKey: adminUser
                secretKey: adminSecret
                whiteRemoteAddress: 192.168.1.*
                admin: true
              - accessKey: adminLimited
                secretKey: adminSecret2
                admin: true
                defaultTopicPerm: SUB
                topicPerms:
                  - TopicA=PUB
            """;

    private static final String CLIENT = "127.0.0.1";

    private final PlainAclValidator validator = new PlainAclValidator(PlainAclFileTest.parse(RULES));

    /** A request signed like {@code AclClientRPCHook}: AccessKey added, then the signature over all fields and the body. */
    static AccessRequest signed(int code, Map<String, String> fields, byte[] body, String accessKey, String secret,
                                String address) {
        RemotingCommand command = RemotingCommand.request(code, fields).withBody(body);
        new RequestSigner(accessKey, secret).beforeSend("broker:10911", command);
        return new AccessRequest(code, RemotingCommand.CURRENT_VERSION, command.extFields(), command.body(), address);
    }

    static AccessRequest send(String topic, String accessKey, String secret) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("a", "pg_app");
        fields.put("b", topic);
        fields.put("c", "TBW102");
        return signed(RequestCode.SEND_MESSAGE_V2, fields, "body".getBytes(StandardCharsets.UTF_8), accessKey, secret,
                CLIENT);
    }

    @Test
    void letsASignedSendToAPublishableTopicThrough() {
        assertThatCode(() -> validator.validate(send("TopicA", "appUser1", "appSecret1"))).doesNotThrowAnyException();
    }

    @Test
    void refusesAWrongSecret() {
        assertDenied(send("TopicA", "appUser1", "wrongSecret"), "Check signature failed for accessKey=appUser1");
    }

    @Test
    void refusesATamperedBodyOrHeader() {
        AccessRequest good = send("TopicA", "appUser1", "appSecret1");
        assertDenied(new AccessRequest(good.code(), good.version(), good.extFields(), "other".getBytes(), CLIENT),
                "Check signature failed");
        Map<String, String> fields = new LinkedHashMap<>(good.extFields());
        fields.put("b", "TopicSub");
        assertDenied(new AccessRequest(good.code(), good.version(), fields, good.body(), CLIENT), "Check signature failed");
    }

    @Test
    void refusesUnknownAndMissingAccessKeys() {
        assertDenied(send("TopicA", "nobody00", "whatever"), "No acl config for nobody00");
        assertDenied(new AccessRequest(RequestCode.GET_ROUTEINFO_BY_TOPIC, 479, Map.of("topic", "TopicA"), new byte[0],
                CLIENT), "No accessKey is configured");
    }

    @Test
    void globalWhiteAddressesNeedNoSignature() {
        assertThatCode(() -> validator.validate(new AccessRequest(RequestCode.UPDATE_AND_CREATE_TOPIC, 479,
                Map.of("topic", "X"), new byte[0], "10.10.103.9"))).doesNotThrowAnyException();
    }

    @Test
    void anAccountsWhiteAddressNeedsNoSignatureFromThere() {
        Map<String, String> unsigned = Map.of("topic", "X", "AccessKey", "adminUser");
        assertThatCode(() -> validator.validate(new AccessRequest(RequestCode.UPDATE_AND_CREATE_TOPIC, 479, unsigned,
                new byte[0], "192.168.1.20"))).doesNotThrowAnyException();
        assertDenied(new AccessRequest(RequestCode.UPDATE_AND_CREATE_TOPIC, 479, unsigned, new byte[0], CLIENT),
                "Check signature failed for accessKey=adminUser");
    }

    @Test
    void topicPermissionsComeFromTheEntryElseTheDefault() {
        assertDenied(send("TopicSub", "appUser1", "appSecret1"), "No default permission for topic:TopicSub");
        assertDenied(send("TopicDeny", "appUser1", "appSecret1"), "No default permission for topic:TopicDeny");
        assertDenied(send("Unlisted", "appUser1", "appSecret1"), "No default permission for topic:Unlisted");
        assertThatCode(() -> validator.validate(pull("TopicSub", "cg_any", "appUser1", "appSecret1")))
                .doesNotThrowAnyException();
    }

    @Test
    void groupsAreCheckedAsTheirRetryTopic() {
        assertDenied(pull("TopicA", "groupDeny", "appUser1", "appSecret1"), "No default permission for group:groupDeny");
        // A consumer re-sending to its retry topic names its group as the producer group.
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("a", "groupDeny");
        fields.put("b", "%RETRY%groupDeny");
        assertDenied(signed(RequestCode.SEND_MESSAGE_V2, fields, new byte[0], "appUser1", "appSecret1", CLIENT),
                "No default permission for group:groupDeny");
        assertDenied(signed(RequestCode.CONSUMER_SEND_MSG_BACK, Map.of("group", "groupDeny", "offset", "1"),
                new byte[0], "appUser1", "appSecret1", CLIENT), "group:groupDeny");
    }

    @Test
    void adminCodesNeedAnAdminAccount() {
        Map<String, String> fields = Map.of("topic", "NewTopic", "readQueueNums", "4");
        assertDenied(signed(RequestCode.UPDATE_AND_CREATE_TOPIC, fields, new byte[0], "appUser1", "appSecret1", CLIENT),
                "Need admin permission for request code=17, but accessKey=appUser1 is not");
        assertDenied(signed(RequestCode.REGISTER_BROKER, Map.of("brokerName", "b"), new byte[0], "appUser1",
                "appSecret1", CLIENT), "Need admin permission for request code=103");
        assertThatCode(() -> validator.validate(signed(RequestCode.UPDATE_AND_CREATE_TOPIC, fields, new byte[0],
                "adminUser", "adminSecret", CLIENT))).doesNotThrowAnyException();
    }

    @Test
    void anAdminWithoutEntriesMayDoAnythingButOneWithEntriesFollowsThem() {
        assertThatCode(() -> validator.validate(send("Anything", "adminUser", "adminSecret"))).doesNotThrowAnyException();
        assertThatCode(() -> validator.validate(send("TopicA", "adminLimited", "adminSecret2")))
                .doesNotThrowAnyException();
        assertDenied(send("Other", "adminLimited", "adminSecret2"), "No default permission for topic:Other");
    }

    @Test
    void publishingToTheTraceTopicIsAlwaysAllowed() {
        assertThatCode(() -> validator.validate(send(PlainAclValidator.TRACE_TOPIC, "appUser1", "appSecret1")))
                .doesNotThrowAnyException();
    }

    @Test
    void heartbeatsNeedEveryGroupAndSubscribedTopic() {
        String body = "{\"clientID\":\"c1\",\"consumerDataSet\":[{\"groupName\":\"cg1\",\"subscriptionDataSet\":["
                + "{\"topic\":\"TopicA\"},{\"topic\":\"%RETRY%cg1\"}]}],\"producerDataSet\":[{\"groupName\":\"pg\"}]}";
        assertThatCode(() -> validator.validate(signed(RequestCode.HEART_BEAT, Map.of(),
                body.getBytes(StandardCharsets.UTF_8), "appUser1", "appSecret1", CLIENT))).doesNotThrowAnyException();
        String denied = body.replace("TopicA", "TopicDeny");
        assertDenied(signed(RequestCode.HEART_BEAT, Map.of(), denied.getBytes(StandardCharsets.UTF_8), "appUser1",
                "appSecret1", CLIENT), "No default permission for topic:TopicDeny");
        assertDenied(signed(RequestCode.HEART_BEAT, Map.of(), "{not json".getBytes(StandardCharsets.UTF_8), "appUser1",
                "appSecret1", CLIENT), "Heartbeat body");
    }

    @Test
    void offsetCommitsNeedGroupAndTopic() {
        Map<String, String> fields = Map.of("consumerGroup", "cg1", "topic", "TopicDeny", "queueId", "0",
                "commitOffset", "5");
        assertDenied(signed(RequestCode.UPDATE_CONSUMER_OFFSET, fields, new byte[0], "appUser1", "appSecret1", CLIENT),
                "topic:TopicDeny");
    }

    @Test
    void replacedRulesApplyToTheNextRequest() {
        validator.replace(PlainAclFileTest.parse(RULES.replace("TopicA=PUB|SUB", "TopicA=SUB")));
        assertDenied(send("TopicA", "appUser1", "appSecret1"), "topic:TopicA");
    }

    static AccessRequest pull(String topic, String group, String accessKey, String secret) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("consumerGroup", group);
        fields.put("topic", topic);
        fields.put("queueId", "0");
        return signed(RequestCode.PULL_MESSAGE, fields, new byte[0], accessKey, secret, CLIENT);
    }

    private void assertDenied(AccessRequest request, String reason) {
        assertThatThrownBy(() -> validator.validate(request)).isInstanceOf(AclDeniedException.class)
                .hasMessageContaining(reason);
    }
}
