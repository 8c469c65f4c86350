package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.testkit.process.Await;
import org.modmq.testkit.process.ChildProcess;
import org.modmq.testkit.process.FreePort;

/**
 * What an operator sees on the console of {@code bin/mqbroker}: the broker's own lines and no notice from
 * the logging library. The broker's start sets up logging on one thread while another warms up Netty; when
 * the two raced, slf4j queued Netty's DEBUG lines and replayed them behind an "SLF4J(W)" notice on most
 * starts, so the broker is started (and killed) a few times.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BrokerConsoleOutputTest {

    private static final int STARTS = 3;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void startsPrintNoLoggingLibraryNotice() {
        Distribution distribution = Distribution.located();
        // No name server runs at this address: the broker starts all the same and retries its registration.
        Distribution.BrokerConf conf = distribution.brokerConf(workDir, "console-output",
                List.of("127.0.0.1:" + FreePort.pick()), Map.of());
        ChildProcess broker = distribution.startBroker(workDir, conf);
        try {
            for (int start = 1; start <= STARTS; start++) {
                ChildProcess running = broker;
                int starts = start;
                // Netty's transport line comes from the warm-up thread's last step, after logging is set up.
                Await.until("start " + start + " reported its transport and its start", Duration.ofSeconds(30),
                        () -> count(running.output(), "remoting transport:") >= starts
                                && count(running.output(), " started on ") >= starts);
                broker.kill();
                if (start < STARTS) {
                    broker = broker.restart(Distribution.START_TIMEOUT);
                }
            }
            assertThat(broker.output()).doesNotContain("SLF4J");
        } finally {
            broker.close();
        }
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }
}
