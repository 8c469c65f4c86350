package org.modmq.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.modmq.api.config.ConfigException;

class PlainAclFileTest {

    /** The layout of RocketMQ's sample file: numbers as secrets, an empty address, group perms. */
    static final String SAMPLE = """
            globalWhiteRemoteAddresses:
              - 10.10.103.*
              - 192.168.0.*

            accounts:
              - accessKey: RocketMQ
                secretKey: 12345678
                whiteRemoteAddress:
                admin: false
                defaultTopicPerm: DENY
                defaultGroupPerm: SUB
                topicPerms:
                  - topicA=DENY
                  - topicB=PUB|SUB
                  - topicC=SUB
                groupPerms:
                  # the group should convert to retry topic
                  - groupA=DENY
                  - groupB=PUB|SUB
                  - groupC=SUB

              - accessKey: rocketmq2
                secretKey: 12345678
                whiteRemoteAddress: 192.168.1.*
                admin: true
            """;

    static AclRules parse(String yaml) {
        return PlainAclFile.parse(yaml.getBytes(StandardCharsets.UTF_8), "test.yml");
    }

    @Test
    void readsRocketMqsSampleFile() {
        AclRules rules = parse(SAMPLE);
        assertThat(rules.globalWhiteRemoteAddresses()).extracting(AddressPattern::toString)
                .containsExactly("10.10.103.*", "192.168.0.*");
        AclAccount plain = rules.account("RocketMQ").orElseThrow();
        assertThat(plain.secretKey()).isEqualTo("12345678");
        assertThat(plain.admin()).isFalse();
        assertThat(plain.whiteRemoteAddress().matches("192.168.1.1")).isFalse();
        assertThat(plain.defaultTopicPerm()).isEqualTo(AclPermission.DENY);
        assertThat(plain.defaultGroupPerm()).isEqualTo(AclPermission.SUB);
        assertThat(plain.resourcePerms()).containsEntry("topicA", AclPermission.DENY)
                .containsEntry("topicB", (byte) (AclPermission.PUB | AclPermission.SUB))
                .containsEntry("%RETRY%groupA", AclPermission.DENY)
                .containsEntry("%RETRY%groupC", AclPermission.SUB)
                .hasSize(6);
        AclAccount admin = rules.account("rocketmq2").orElseThrow();
        assertThat(admin.admin()).isTrue();
        assertThat(admin.whiteRemoteAddress().matches("192.168.1.77")).isTrue();
        assertThat(admin.defaultTopicPerm()).isEqualTo(AclPermission.DENY);
        assertThat(admin.toString()).doesNotContain("12345678");
    }

    @Test
    void anAbsentListIsEmpty() {
        AclRules rules = parse("accounts:\n  - accessKey: abcdefg\n    secretKey: hijklmn\n");
        assertThat(rules.globalWhiteRemoteAddresses()).isEmpty();
        assertThat(rules.account("abcdefg")).isPresent();
        assertThat(rules.account("other")).isEmpty();
    }

    @Test
    void rejectsMalformedFilesNamingTheEntry() {
        assertBad("accounts: [", "not valid YAML");
        assertBad("", "empty");
        assertBad("- a\n- b\n", "mapping");
        assertBad("acounts: []\n", "unknown key 'acounts'");
        assertBad("accounts:\n  - accessKey: abcdefg\n    secretKey: hijklmn\n    defaultTopicPerm: WRITE\n",
                "defaultTopicPerm", "WRITE");
        assertBad("accounts:\n  - accessKey: abcdefg\n    secretKey: hijklmn\n    topicPerms: [topicA]\n",
                "topicPerms", "topicA");
        assertBad("accounts:\n  - accessKey: short\n    secretKey: hijklmn\n", "at least 7");
        assertBad("accounts:\n  - accessKey: abcdefg\n    secretKey: hijklmn\n  - accessKey: abcdefg\n"
                + "    secretKey: opqrstu\n", "appears twice");
        assertBad("accounts:\n  - accessKey: abcdefg\n    secretKey: hijklmn\n    whiteRemoteAddress: 1.2.3\n",
                "whiteRemoteAddress", "1.2.3");
        assertBad("accounts:\n  - accessKey: abcdefg\n    secretKey: hijklmn\n    admin: maybe\n", "admin");
        assertBad("accounts:\n  - accessKey: abcdefg\n    secretKey: hijklmn\n    topicPrems: [a=SUB]\n",
                "topicPrems");
        assertBad("globalWhiteRemoteAddresses: [10.0.0.300]\n", "10.0.0.300");
    }

    @Test
    void refusesYamlTagsThatWouldBuildObjects() {
        assertBad("accounts: !!java.util.ArrayList []\n", "test.yml");
    }

    private static void assertBad(String yaml, String... expected) {
        assertThatThrownBy(() -> parse(yaml)).isInstanceOf(ConfigException.class)
                .hasMessageContainingAll(expected);
    }
}
