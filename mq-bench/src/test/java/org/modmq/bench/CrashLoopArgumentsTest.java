package org.modmq.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

class CrashLoopArgumentsTest {

    @Test
    void crashLoopDefaultsToAHundredKillsOfFourThreadsLoad() {
        ParseResult result = BenchMain.commandLine().parseArgs("crashloop", "-n", "127.0.0.1:1", "--broker-cmd",
                "bin/mqbroker", "--broker-conf", "broker.conf", "--broker-addr", "127.0.0.1:10911", "--broker-log", "b.out");
        CrashLoopCommand loop = (CrashLoopCommand) result.subcommand().commandSpec().userObject();
        assertThat(loop.cycles).isEqualTo(100);
        assertThat(loop.threads).isEqualTo(4);
        assertThat(loop.upMinMillis).isEqualTo(300);
        assertThat(loop.upMaxMillis).isEqualTo(1500);
    }

    @Test
    void badRangesAreRefusedBeforeAnythingStarts() {
        CommandLine line = BenchMain.commandLine();
        StringWriter err = new StringWriter();
        line.setErr(new PrintWriter(err));
        int code = line.execute("crashloop", "-n", "127.0.0.1:1", "--broker-cmd", "/nonexistent/mqbroker",
                "--broker-conf", "broker.conf", "--broker-addr", "127.0.0.1:10911", "--broker-log", "b.out",
                "--up-min-ms", "900", "--up-max-ms", "100");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--up-min-ms");
    }
}
