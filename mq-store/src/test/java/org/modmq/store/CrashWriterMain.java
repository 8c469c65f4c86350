package org.modmq.store;

import io.netty.buffer.ByteBufAllocator;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.modmq.api.message.PutStatus;
import org.modmq.api.spi.PluginContext;

/**
 * Child process of {@link CrashRecoveryTest}: opens a SYNC_FLUSH store on a real backend and appends
 * until killed, printing {@code ACK <commitLogOffset> <queueOffset> <body>} for each acknowledged put.
 * Arguments: backend name, store root.
 */
public final class CrashWriterMain {

    private CrashWriterMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.UTF_8);
        Path root = Path.of(args[1]);
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        PluginContext context = new PluginContext(Clock.systemUTC(), scheduler, ByteBufAllocator.DEFAULT, root);
        MessageStore store = MessageStore.open(CrashRecoveryTest.config(args[0], root), context);
        for (int i = 0; i < 1_000_000; i++) {
            String body = "crash-" + i + "-" + "p".repeat(300 + i % 200);
            PutResult result = store.putMessage(TestMessages.message("CrashTopic", 0, body, "TagC", "k" + i))
                    .get(30, TimeUnit.SECONDS);
            if (result.status() == PutStatus.PUT_OK) {
                out.println("ACK " + result.commitLogOffset() + " " + result.queueOffset() + " " + body);
            }
        }
        store.close();
        scheduler.shutdownNow();
    }
}
