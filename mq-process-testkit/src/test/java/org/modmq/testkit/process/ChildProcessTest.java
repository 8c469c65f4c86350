package org.modmq.testkit.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
@Timeout(60)
class ChildProcessTest {

    private static final Duration START = Duration.ofSeconds(30);

    @TempDir
    Path work;

    private ProcessSpec holder(String name, String argument, int port) {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                PortHolder.class.getName(), argument);
        return new ProcessSpec(name, command, Map.of(PortHolder.PROBE_VARIABLE, "from-the-spec"), work, port);
    }

    @Test
    void startsOnceThePortAcceptsAndStopsOnSigterm() throws Exception {
        int port = FreePort.pick();
        try (ChildProcess child = ChildProcess.start(holder("holder", Integer.toString(port), port), START)) {
            assertThat(child.isAlive()).isTrue();
            assertThat(child.address()).isEqualTo("127.0.0.1:" + port);
            assertThat(FreePort.accepts(port)).isTrue();
            assertThat(child.exitStatus()).isEqualTo(-1);
            assertThat(child.outputFile()).isEqualTo(work.resolve("holder.out")).exists();
            assertThat(Files.readString(work.resolve(PortHolder.PROBE_FILE))).isEqualTo("from-the-spec");

            assertThat(child.stop(Duration.ofSeconds(20))).isTrue();
            assertThat(child.exitStatus()).isEqualTo(143);
            assertThat(child.stop(Duration.ofSeconds(20))).as("idempotent").isTrue();
            assertThat(FreePort.accepts(port)).isFalse();
        }
    }

    @Test
    void restartsOnTheSamePortAfterAKill() {
        int port = FreePort.pick();
        ChildProcess first = ChildProcess.start(holder("restarted", Integer.toString(port), port), START);
        assertThatThrownBy(() -> first.restart(START)).isInstanceOf(IllegalStateException.class);
        first.kill();
        assertThat(first.exitStatus()).isEqualTo(137);
        try (ChildProcess second = first.restart(START)) {
            assertThat(second.port()).isEqualTo(port);
            assertThat(second.pid()).isNotEqualTo(first.pid());
            assertThat(ChildProcess.stopAll(Duration.ofSeconds(20), first, second)).isTrue();
            assertThat(second.isAlive()).isFalse();
        }
    }

    @Test
    void failsWithTheOutputWhenTheProcessExitsBeforeListening() {
        int port = FreePort.pick();
        assertThatThrownBy(() -> ChildProcess.start(holder("failing", "fail", port), START))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("failing exited with status 1 before listening on " + port)
                .hasMessageContaining("deliberate start-up failure");
    }

    @Test
    void failsWithTheOutputWhenThePortStaysClosed() {
        int[] ports = FreePort.pick(2);
        ChildProcess[] started = new ChildProcess[1];
        try (ChildProcess child = ChildProcess.start(holder("elsewhere", Integer.toString(ports[0]), ports[0]), START)) {
            started[0] = child;
            assertThatThrownBy(() -> child.awaitAccepting(ports[1], Duration.ofMillis(300)))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("elsewhere to accept on 127.0.0.1:" + ports[1])
                    .hasMessageContaining("; output of elsewhere:");
        }
        assertThat(started[0].isAlive()).isFalse();
    }

    @Test
    void rejectsAnIncompleteSpec() {
        assertThatThrownBy(() -> new ProcessSpec("x", List.of(), Map.of(), work, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ProcessSpec("x", List.of("true"), Map.of(), work, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
