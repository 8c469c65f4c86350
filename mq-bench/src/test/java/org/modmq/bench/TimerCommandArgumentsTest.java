package org.modmq.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

class TimerCommandArgumentsTest {

    @Test
    void timerDefaultsToAMillionTimersOverTenMinutes() {
        ParseResult result = BenchMain.commandLine().parseArgs("timer", "-n", "127.0.0.1:1");
        TimerCommand timer = (TimerCommand) result.subcommand().commandSpec().userObject();
        assertThat(timer.count).isEqualTo(1_000_000);
        assertThat(timer.windowSeconds).isEqualTo(600);
        assertThat(timer.leadSeconds).isEqualTo(30);
        assertThat(timer.brokerPid).isEqualTo(-1);
    }

    @Test
    void timerTakesAReducedScaleAndTheBrokerPid() {
        ParseResult result = BenchMain.commandLine().parseArgs("timer", "-n", "127.0.0.1:1", "-N", "100000",
                "--window", "120", "--broker-pid", "4242", "-s", "64");
        TimerCommand timer = (TimerCommand) result.subcommand().commandSpec().userObject();
        assertThat(timer.count).isEqualTo(100_000);
        assertThat(timer.windowSeconds).isEqualTo(120);
        assertThat(timer.brokerPid).isEqualTo(4242);
        assertThat(timer.common.size).isEqualTo(64);
    }

    @Test
    void brokerRssIsUnknownWithoutAPid() {
        BrokerRss rss = new BrokerRss(-1);
        assertThat(rss.sampleKib()).isEqualTo(-1);
        assertThat(BrokerRss.mib(rss.maxKib())).isEqualTo("n/a");
        assertThat(new BrokerRss(ProcessHandle.current().pid()).sampleKib()).isPositive();
    }
}
