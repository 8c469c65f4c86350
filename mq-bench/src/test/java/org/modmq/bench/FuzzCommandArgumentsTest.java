package org.modmq.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

class FuzzCommandArgumentsTest {

    @Test
    void fuzzRunsAMinutePerTargetWithARandomSeedByDefault() {
        ParseResult result = BenchMain.commandLine().parseArgs("fuzz", "--broker", "127.0.0.1:10911");
        FuzzCommand fuzz = (FuzzCommand) result.subcommand().commandSpec().userObject();
        assertThat(fuzz.broker).isEqualTo("127.0.0.1:10911");
        assertThat(fuzz.namesrv).isNull();
        assertThat(fuzz.durationSeconds).isEqualTo(60);
        assertThat(fuzz.count).isEqualTo(Long.MAX_VALUE);
        assertThat(fuzz.seed).isNull();
        assertThat(fuzz.checkStored).isFalse();
    }

    @Test
    void fuzzRefusesNoTargetAndAddressesThatAreNotLoopback() {
        assertThat(run("fuzz")).isEqualTo(2);
        assertThat(run("fuzz", "--broker", "192.0.2.1:10911")).isEqualTo(2);
        assertThat(run("fuzz", "-n", "127.0.0.1:notaport")).isEqualTo(2);
    }

    private static int run(String... args) {
        CommandLine commandLine = BenchMain.commandLine();
        commandLine.setErr(new PrintWriter(new StringWriter()));
        commandLine.setOut(new PrintWriter(new StringWriter()));
        return commandLine.execute(args);
    }
}
