package org.modmq.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.modmq.api.config.ConfigException;

class AddressPatternTest {

    @Test
    void blankMatchesNothingAndStarMatchesEverything() {
        assertThat(AddressPattern.parse("").matches("127.0.0.1")).isFalse();
        assertThat(AddressPattern.parse(null).matches("127.0.0.1")).isFalse();
        for (String any : new String[] {"*", "*.*.*.*", "*:*:*:*:*:*:*:*"}) {
            assertThat(AddressPattern.parse(any).matches("10.1.2.3")).as(any).isTrue();
            assertThat(AddressPattern.parse(any).matches("::1")).as(any).isTrue();
        }
    }

    @Test
    void exactAddressesAndLists() {
        AddressPattern one = AddressPattern.parse("192.168.0.1");
        assertThat(one.matches("192.168.0.1")).isTrue();
        assertThat(one.matches("192.168.0.10")).isFalse();
        AddressPattern list = AddressPattern.parse("192.168.0.1, 10.0.0.7");
        assertThat(list.matches("10.0.0.7")).isTrue();
        assertThat(list.matches("10.0.0.8")).isFalse();
        AddressPattern v6 = AddressPattern.parse("0:0:0:0:0:0:0:1");
        assertThat(v6.matches("::1")).isTrue();
    }

    @Test
    void bracesListTheLastPart() {
        AddressPattern pattern = AddressPattern.parse("192.168.0.{1,2}");
        assertThat(pattern.matches("192.168.0.1")).isTrue();
        assertThat(pattern.matches("192.168.0.2")).isTrue();
        assertThat(pattern.matches("192.168.0.3")).isFalse();
        assertThat(pattern.matches("192.168.1.1")).isFalse();
    }

    @Test
    void wildcardsFixTheLeadingParts() {
        AddressPattern last = AddressPattern.parse("192.168.1.*");
        assertThat(last.matches("192.168.1.0")).isTrue();
        assertThat(last.matches("192.168.1.255")).isTrue();
        assertThat(last.matches("192.168.2.1")).isFalse();
        assertThat(last.matches("192.168.10.1")).isFalse();
        AddressPattern two = AddressPattern.parse("10.*.*.*");
        assertThat(two.matches("10.200.3.4")).isTrue();
        assertThat(two.matches("11.0.0.1")).isFalse();
    }

    @Test
    void rangesAreInclusive() {
        AddressPattern last = AddressPattern.parse("192.168.1.1-10");
        assertThat(last.matches("192.168.1.1")).isTrue();
        assertThat(last.matches("192.168.1.10")).isTrue();
        assertThat(last.matches("192.168.1.11")).isFalse();
        assertThat(last.matches("192.168.1.0")).isFalse();
        AddressPattern third = AddressPattern.parse("192.168.1-10.*");
        assertThat(third.matches("192.168.5.77")).isTrue();
        assertThat(third.matches("192.168.11.1")).isFalse();
    }

    @Test
    void rejectsWhatRocketMqWouldNotMatch() {
        for (String bad : new String[] {"192.168.1", "300.1.1.1", "192.168.*.1", "192.168.10-1.*", "*.1.1.1",
                "192.168.{1,2}", "abc", "192.168.0.{1,x}", "1::2::3"}) {
            assertThatThrownBy(() -> AddressPattern.parse(bad)).as(bad).isInstanceOf(ConfigException.class)
                    .hasMessageContaining(bad);
        }
    }

    @Test
    void neverMatchesAMissingAddress() {
        assertThat(AddressPattern.parse("*").matches(null)).isFalse();
        assertThat(AddressPattern.parse("192.168.1.*").matches("not-an-ip")).isFalse();
    }
}
